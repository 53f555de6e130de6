# collide_discover_tests(TARGET [WORKING_DIRECTORY DIR] [PROPERTIES NAME VALUE...]): every Catch2
# test case of TARGET becomes a ctest test of its own, run as `TARGET "NAME"`, as Catch2's own
# catch_discover_tests does — but a test case's name may hold a ';'. Catch2 v2.13's discovery
# reads the names through a CMake list, which splits them there: "a; b" became a ctest test "a"
# whose spec matched no test case, so it passed having run nothing. Here the names are read line
# by line as strings (discover_tests.cmake) and written as bracket arguments.
set(COLLIDE_DISCOVER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/discover_tests.cmake")

function(collide_discover_tests TARGET)
  cmake_parse_arguments(PARSE_ARGV 1 "" "" "WORKING_DIRECTORY" "PROPERTIES")
  if(NOT _WORKING_DIRECTORY)
    set(_WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(tests_file "${CMAKE_CURRENT_BINARY_DIR}/${TARGET}_tests.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${TARGET}_include.cmake")
  add_custom_command(
    TARGET ${TARGET} POST_BUILD
    BYPRODUCTS "${tests_file}"
    COMMAND "${CMAKE_COMMAND}" -D "TEST_EXECUTABLE=$<TARGET_FILE:${TARGET}>" -D "TEST_WORKING_DIR=${_WORKING_DIRECTORY}"
            -D "TEST_PROPERTIES=${_PROPERTIES}" -D "CTEST_FILE=${tests_file}" -P "${COLLIDE_DISCOVER_SCRIPT}"
    VERBATIM)
  file(WRITE "${include_file}"
       "if(EXISTS \"${tests_file}\")\n  include(\"${tests_file}\")\nelse()\n"
       "  add_test(${TARGET}_NOT_BUILT ${TARGET}_NOT_BUILT)\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
