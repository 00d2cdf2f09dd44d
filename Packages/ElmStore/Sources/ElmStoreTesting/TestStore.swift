import ElmStore
