# The README's comparison table is only as good as the versions it was checked against:
# every library it compares in detail must name the release or commit behind its column
# ("The <library> column was checked against ..." or "The <library> column names <library>
# <version>, ..."), and the header must carry it too
# (issue 33, item 9: Redisson's column had gone stale without saying which Redisson).
#   cmake -DREADME=README.md -P check_comparison.cmake
file(READ ${README} text)
string(REPLACE "\n" " " flat "${text}")
foreach(library Redisson redis-plus-plus)
  if(NOT flat MATCHES "The ${library} column (was checked against|names ${library} [0-9])")
    message(FATAL_ERROR "README.md compares ${library} without naming the version checked "
                        "(\"The ${library} column was checked against ...\")")
  endif()
endforeach()
if(NOT text MATCHES "\\| Redisson `RLock` \\([0-9]+\\.[0-9]+")
  message(FATAL_ERROR "the comparison table's Redisson header names no version")
endif()
message(STATUS "the comparison names the versions it was checked against")
