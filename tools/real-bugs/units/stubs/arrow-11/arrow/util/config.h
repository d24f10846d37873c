// Stand-in written for the oracle: the header Arrow's CMake generates from
// cpp/src/arrow/util/config.h.cmake, for Arrow 11.0.0 with no optional component
// (cudf's headers only need the version and the declarations).
#pragma once
#define ARROW_VERSION_MAJOR 11
#define ARROW_VERSION_MINOR 0
#define ARROW_VERSION_PATCH 0
#define ARROW_VERSION ((ARROW_VERSION_MAJOR * 1000) + ARROW_VERSION_MINOR) * 1000 + ARROW_VERSION_PATCH
#define ARROW_VERSION_STRING "11.0.0"
#define ARROW_SO_VERSION "1100"
#define ARROW_FULL_SO_VERSION "1100.0.0"
#define ARROW_CXX_COMPILER_ID "Clang"
#define ARROW_CXX_COMPILER_VERSION "22"
#define ARROW_CXX_COMPILER_FLAGS ""
#define ARROW_BUILD_TYPE "RELEASE"
#define ARROW_GIT_ID ""
#define ARROW_GIT_DESCRIPTION ""
#define ARROW_PACKAGE_KIND ""
