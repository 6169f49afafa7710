// The target that owns the GoogleTest suites' precompiled header (tests/CMakeLists.txt):
// CMake builds a precompiled header with a target, and this one has no code of its own.
