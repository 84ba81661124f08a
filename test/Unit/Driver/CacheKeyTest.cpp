//===- CacheKeyTest.cpp - cache keys and atomic writes --------------------===//
#include "tessel/Driver/ContentCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace tessel::driver;

TEST(CacheKey, FieldsAreDelimited) {
  EXPECT_NE(CacheKey().add("a", "bc").hex(), CacheKey().add("ab", "c").hex());
  EXPECT_NE(CacheKey().add("x", "1").add("y", "2").hex(), CacheKey().add("x", "12").hex());
  EXPECT_EQ(CacheKey().add("x", "1").hex(), CacheKey().add("x", "1").hex());
  EXPECT_EQ(CacheKey().add("x", "1").hex().size(), 32u);
}

TEST(CacheKey, FilesAndAtomicWrites) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tessel-cache-test", dir));
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "f.txt");
  ASSERT_FALSE(llvm::errorToBool(writeFileAtomically(file, "one")));
  std::string k1, k2;
  {
    CacheKey key;
    ASSERT_FALSE(llvm::errorToBool(key.addFile(file)));
    k1 = key.hex();
  }
  ASSERT_FALSE(llvm::errorToBool(writeFileAtomically(file, "two")));
  {
    CacheKey key;
    ASSERT_FALSE(llvm::errorToBool(key.addFile(file)));
    k2 = key.hex();
  }
  EXPECT_NE(k1, k2);
  auto buf = llvm::MemoryBuffer::getFile(file);
  ASSERT_TRUE(static_cast<bool>(buf));
  EXPECT_EQ((*buf)->getBuffer(), "two");
  // No temporary file is left behind.
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 1);
  CacheKey missing;
  EXPECT_TRUE(llvm::errorToBool(missing.addFile((dir + "/nope").str())));
  // A write that cannot happen is an error naming the file, and leaves nothing behind.
  std::string unwritable = (dir + "/no-such-dir/f.txt").str();
  llvm::Error err = writeFileAtomically(unwritable, "three");
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(llvm::toString(std::move(err)).find(unwritable), std::string::npos);
  entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 1);
  llvm::sys::fs::remove_directories(dir);
}
