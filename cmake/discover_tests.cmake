# Script mode (cmake -P), run after every build of a test binary (CollideDiscoverTests.cmake):
# lists TEST_EXECUTABLE's test cases and writes CTEST_FILE, one add_test and one
# set_tests_properties (WORKING_DIRECTORY TEST_WORKING_DIR, then TEST_PROPERTIES) per test case.
# Names never pass through a CMake list (a ';' in a name would split it): each line is cut from
# the output as a string and written as a bracket argument. The test cases tagged [heavy] (the
# suite's slowest, which repeat code other tests cover at a larger scale) get the ctest label
# `heavy`: the sanitizer job leaves them out (`ctest -LE heavy`, scripts/sanitize.sh).
execute_process(
  COMMAND "${TEST_EXECUTABLE}" "[heavy]" --list-test-names-only
  OUTPUT_VARIABLE heavy_output
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}")
if(NOT result MATCHES "^[0-9]+$")
  message(FATAL_ERROR "cannot list the [heavy] test cases of ${TEST_EXECUTABLE}: ${result}\n${heavy_output}")
endif()
set(heavy "\n${heavy_output}\n")
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --list-test-names-only
  OUTPUT_VARIABLE output
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}")
if(NOT result MATCHES "^[0-9]+$")
  message(FATAL_ERROR "cannot list the test cases of ${TEST_EXECUTABLE}: ${result}\n${output}")
endif()

set(script "")
set(count 0)
while(NOT output STREQUAL "")
  string(FIND "${output}" "\n" end)
  if(end EQUAL -1)
    set(line "${output}")
    set(output "")
  else()
    string(SUBSTRING "${output}" 0 ${end} line)
    math(EXPR next "${end} + 1")
    string(SUBSTRING "${output}" ${next} -1 output)
  endif()
  if(line STREQUAL "")
    continue()
  endif()
  # Catch2 reads , [ ] in a test spec as syntax: escape them so that the spec is the name.
  set(spec "${line}")
  foreach(char "," "[" "]")
    string(REPLACE "${char}" "\\${char}" spec "${spec}")
  endforeach()
  string(APPEND script "add_test([==[${line}]==] [==[${TEST_EXECUTABLE}]==] [==[${spec}]==])\n")
  string(APPEND script "set_tests_properties([==[${line}]==] PROPERTIES WORKING_DIRECTORY [==[${TEST_WORKING_DIR}]==]")
  foreach(p IN LISTS TEST_PROPERTIES)
    string(APPEND script " [==[${p}]==]")
  endforeach()
  string(FIND "${heavy}" "\n${line}\n" heavy_at)
  if(NOT heavy_at EQUAL -1)
    string(APPEND script " LABELS heavy")
  endif()
  string(APPEND script ")\n")
  math(EXPR count "${count} + 1")
endwhile()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} has no test cases")
endif()
file(WRITE "${CTEST_FILE}" "${script}")
