# Finds Loom's Debian 12 dependencies. LLVM and Clang are linked as the shared libLLVM-15.so and
# libclang-cpp.so.15 only: PoCL, loaded into the same process by the ICD loader, uses those same copies.

find_package(LLVM 15 REQUIRED CONFIG HINTS /usr/lib/llvm-15/lib/cmake/llvm)
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-15/lib/cmake/clang)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}")

add_library(loom_llvm INTERFACE)
target_include_directories(loom_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(loom_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(loom_llvm INTERFACE LLVM)

add_library(loom_clang INTERFACE)
target_include_directories(loom_clang SYSTEM INTERFACE ${CLANG_INCLUDE_DIRS})
target_link_libraries(loom_clang INTERFACE clang-cpp loom_llvm)

# Clang's resource directory holds opencl-c-base.h, needed by in-process OpenCL C compiles. Debian
# ships lib/clang/15 (runtime libraries only) and lib/clang/15.0.6 (the headers): take the latter.
file(GLOB loom_resource_candidates LIST_DIRECTORIES true "${LLVM_LIBRARY_DIR}/clang/15*")
foreach(candidate ${loom_resource_candidates})
  if(EXISTS ${candidate}/include/opencl-c-base.h)
    set(LOOM_CLANG_RESOURCE_DIR ${candidate})
  endif()
endforeach()
if(NOT LOOM_CLANG_RESOURCE_DIR)
  message(FATAL_ERROR "no Clang 15 resource directory with include/opencl-c-base.h under ${LLVM_LIBRARY_DIR}/clang")
endif()

# Debian's clang-15 binary compiles the OpenCL C builtin library (frontend/builtins) to bitcode at build
# time; the in-process Clang reads that bitcode, so both must be the same LLVM.
find_program(LOOM_CLANG clang-${LLVM_VERSION_MAJOR} REQUIRED HINTS ${LLVM_TOOLS_BINARY_DIR})
# llvm-link joins the builtin library's LLVM IR parts to what Clang compiled (frontend/CMakeLists.txt).
find_program(LOOM_LLVM_LINK llvm-link-${LLVM_VERSION_MAJOR} REQUIRED HINTS ${LLVM_TOOLS_BINARY_DIR})
execute_process(COMMAND ${LOOM_CLANG} --version OUTPUT_VARIABLE loom_clang_version)
if(NOT loom_clang_version MATCHES "clang version ${LLVM_VERSION_MAJOR}\\.")
  message(FATAL_ERROR "${LOOM_CLANG} is not Clang ${LLVM_VERSION_MAJOR}: ${loom_clang_version}")
endif()

find_library(LLVM_SPIRV_LIB LLVMSPIRVLib REQUIRED)
find_path(LLVM_SPIRV_INCLUDE LLVMSPIRVLib.h PATH_SUFFIXES LLVMSPIRVLib REQUIRED)

find_package(PkgConfig REQUIRED)
pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc)

find_program(VERILATOR_EXECUTABLE verilator REQUIRED)
execute_process(COMMAND ${VERILATOR_EXECUTABLE} --getenv VERILATOR_ROOT
                OUTPUT_VARIABLE VERILATOR_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE)
set(VERILATOR_INCLUDE_DIR ${VERILATOR_ROOT}/include)

find_package(OpenCL REQUIRED)
find_package(Boost REQUIRED)
find_package(Catch2 2 REQUIRED)
find_package(Threads REQUIRED)
find_program(YOSYS_EXECUTABLE yosys)
find_program(FILECHECK_EXECUTABLE FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR})
