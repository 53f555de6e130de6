# The build's identity, for the header of a recording (lib/probes/record_file.cpp, `sim
# --record`): collide's version, the commit the build was configured at (git rev-parse HEAD;
# "unknown" outside a git checkout or without git) and the compiler flags (CMAKE_CXX_FLAGS, the
# build type's, and the project's own). Written into a header that only record_file.cpp
# includes, so a new commit recompiles that one file. CMake configures again when HEAD moves (a
# commit, a checkout): HEAD and the branch's ref are configure dependencies.
set(COLLIDE_COMMIT unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --verify -q HEAD WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                  OUTPUT_VARIABLE commit RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  # Only the project's own checkout: a source tree unpacked inside another repository is not one.
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                  OUTPUT_VARIABLE toplevel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(REAL_PATH "${CMAKE_CURRENT_SOURCE_DIR}" source_dir)
  if(toplevel)
    file(REAL_PATH "${toplevel}" toplevel)
  endif()
  if(NOT failed AND commit MATCHES "^[0-9a-f]+$" AND toplevel STREQUAL source_dir)
    set(COLLIDE_COMMIT ${commit})
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path HEAD WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                    OUTPUT_VARIABLE head_file OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND ${GIT_EXECUTABLE} symbolic-ref -q HEAD WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                    OUTPUT_VARIABLE ref OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    set(watched ${head_file})
    if(ref)
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path ${ref} WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                      OUTPUT_VARIABLE ref_file OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path packed-refs
                      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE packed_file
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      list(APPEND watched ${ref_file} ${packed_file})
    endif()
    foreach(file IN LISTS watched)
      get_filename_component(file "${file}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      if(EXISTS "${file}") # a ref packed away has no file of its own
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
      endif()
    endforeach()
  endif()
endif()

string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
get_directory_property(project_options COMPILE_OPTIONS)
list(JOIN project_options " " project_options)
string(STRIP "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} ${project_options}" COLLIDE_BUILD_FLAGS)
string(REGEX REPLACE "[ \t\r\n]+" " " COLLIDE_BUILD_FLAGS "${COLLIDE_BUILD_FLAGS}")
set(COLLIDE_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
if(NOT COLLIDE_BUILD_TYPE)
  set(COLLIDE_BUILD_TYPE "no build type")
endif()
# As C string literals.
foreach(name COLLIDE_BUILD_FLAGS COLLIDE_BUILD_TYPE)
  string(REPLACE "\\" "\\\\" ${name} "${${name}}")
  string(REPLACE "\"" "\\\"" ${name} "${${name}}")
endforeach()
set(COLLIDE_BUILD_INFO_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated/build_info)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/build_info.h.in ${COLLIDE_BUILD_INFO_DIR}/build_info.h @ONLY)
message(STATUS "Build: collide ${PROJECT_VERSION}, commit ${COLLIDE_COMMIT}, flags ${COLLIDE_BUILD_FLAGS}")
