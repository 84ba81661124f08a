//===- DepfileTest.cpp - parsing compiler depfiles ------------------------===//
#include "tessel/Driver/Depfile.h"

#include <gtest/gtest.h>

using tessel::driver::parseDepfile;

TEST(Depfile, ContinuationLines) {
  auto deps = parseDepfile(
      "/tmp/k.so: /src/k.cpp \\\n /inc/tessel/dsl.h \\\n  /usr/include/c++/12/tuple\n");
  ASSERT_EQ(deps.size(), 3u);
  EXPECT_EQ(deps[0], "/src/k.cpp");
  EXPECT_EQ(deps[1], "/inc/tessel/dsl.h");
  EXPECT_EQ(deps[2], "/usr/include/c++/12/tuple");
}

TEST(Depfile, EscapedSpacesAndDollars) {
  auto deps = parseDepfile("out.o: /my\\ dir/k.cpp /a$$b.h\n");
  ASSERT_EQ(deps.size(), 2u);
  EXPECT_EQ(deps[0], "/my dir/k.cpp");
  EXPECT_EQ(deps[1], "/a$b.h");
}

TEST(Depfile, OnlyTheFirstRule) {
  // -MP adds phony rules for headers; they must not be read as prerequisites twice.
  auto deps = parseDepfile("out.o: a.cpp b.h\nb.h:\n");
  ASSERT_EQ(deps.size(), 2u);
  EXPECT_EQ(deps[1], "b.h");
}

TEST(Depfile, CRLF) {
  auto deps = parseDepfile("out.o: a.cpp \\\r\n b.h\r\n");
  ASSERT_EQ(deps.size(), 2u);
  EXPECT_EQ(deps[1], "b.h");
}
