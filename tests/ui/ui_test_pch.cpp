// The target that owns the window tests' precompiled header (tests/ui/CMakeLists.txt):
// CMake builds a precompiled header with a target, and this one has no code of its own.
