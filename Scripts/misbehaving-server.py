#!/usr/bin/env python3
"""A stand-in for Open-Meteo on 127.0.0.1 that misbehaves on purpose, for Scripts/live-samples.sh.

usage: misbehaving-server.py MODE PORTFILE

Serves every request the same way until killed, and writes the port it listens on to PORTFILE.
MODE is one of:
  huge-announced  Content-Length: 200 MiB, then that many bytes, at most 128 MiB/s
  huge-streamed   200 MiB without Content-Length, ended by closing
  huge-chunked    1 GiB in chunks
  hostile         a place whose name holds escape sequences, BEL, CR/LF and a bidi override
  long-reason     HTTP 500 whose reason is 500,000 characters
  long-name       a place whose name is 100,000 characters
"""
import http.server
import json
import socketserver
import sys
import time

MODE, PORTFILE = sys.argv[1], sys.argv[2]
PIECE = b" " * (64 * 1024)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_stream(self, total, announced, chunked):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        if announced:
            self.send_header("Content-Length", str(total))
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        sent = 0
        try:
            while sent < total:
                piece = PIECE[: min(len(PIECE), total - sent)]
                if chunked:
                    self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                else:
                    self.wfile.write(piece)
                sent += len(piece)
                time.sleep(0.0005)  # a fast network's pace (at most 128 MiB/s)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped the transfer, as it should

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if MODE == "huge-announced":
            self.send_stream(200 << 20, announced=True, chunked=False)
        elif MODE == "huge-streamed":
            self.send_stream(200 << 20, announced=False, chunked=False)
        elif MODE == "huge-chunked":
            self.send_stream(1 << 30, announced=False, chunked=True)
        elif MODE == "hostile":
            name = "Evil\x1b]0;pwned\x07\x1b[2J\r\nTown\u202e"
            self.send_json(200, {"results": [
                {"id": 1, "name": name, "latitude": 1.0, "longitude": 2.0, "country": "X\x1b[31m"}]})
        elif MODE == "long-name":
            self.send_json(200, {"results": [
                {"id": 1, "name": "N" * 100_000, "latitude": 1.0, "longitude": 2.0, "country": "X"}]})
        elif MODE == "long-reason":
            self.send_json(500, {"error": True, "reason": "x" * 500_000})
        else:
            self.send_json(404, {"error": True, "reason": "unknown mode"})


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
with open(PORTFILE, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
