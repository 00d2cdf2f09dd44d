import Foundation

/// How many inputs each thread sends in the runtimes' tests of many threads sending at once:
/// 100,000, or 10,000 under ThreadSanitizer. There a debug build's unspecialized generic code
/// waits on the Swift runtime's metadata locks at every message, and eight threads contending for
/// them took five minutes in Comonadic's test (six seconds without the sanitizer).
package let sendsPerThread = isUnderThreadSanitizer ? 10_000 : 100_000

/// Whether this process runs with ThreadSanitizer's runtime (`swift test --sanitize=thread`).
package let isUnderThreadSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
