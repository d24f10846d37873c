//===--- ResultCacheTest.cpp - the result cache's entries -----------------===//

#include "ResultCache.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

namespace {

/// A cache in a fresh folder, opened with stand-ins for the tools: the
/// entries do not depend on them.
class ResultCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cache-test", Folder));
    llvm::SmallString<128> Plugin(Folder);
    llvm::sys::path::append(Plugin, "plugin.so");
    {
      std::error_code EC;
      llvm::raw_fd_ostream Out(Plugin, EC);
      Out << "not really a plugin";
    }
    llvm::SmallString<128> Dir(Folder);
    llvm::sys::path::append(Dir, "cache");
    auto Opened =
        ResultCache::open(Dir, "/bin/echo", Plugin, "/bin/true", Command);
    ASSERT_TRUE(bool(Opened)) << llvm::toString(Opened.takeError());
    Cache = std::move(*Opened);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Folder); }

  llvm::SmallString<128> Folder;
  SplitCommand Command;
  std::unique_ptr<ResultCache> Cache;
};

TEST_F(ResultCacheTest, ReplaysAnyBytes) {
  const std::string Key(64, 'a');
  EXPECT_FALSE(Cache->lookup(Key));
  CachedRun Run;
  Run.Status = 1;
  Run.Stdout = std::string("k.cu:1:1: warning: \xff\xfe not UTF-8\n\0x", 32);
  Run.Stderr = "1 warning generated.\n";
  Run.ExportedFixes = "";
  Cache->store(Key, Run);
  std::optional<CachedRun> Hit = Cache->lookup(Key);
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->Status, 1);
  EXPECT_EQ(Hit->Stdout, Run.Stdout);
  EXPECT_EQ(Hit->Stderr, Run.Stderr);
  EXPECT_EQ(Hit->ExportedFixes, "");
}

TEST_F(ResultCacheTest, ATruncatedEntryIsAMiss) {
  const std::string Key(64, 'b');
  CachedRun Run;
  Run.Stdout = "some output\n";
  Cache->store(Key, Run);
  llvm::SmallString<128> Entry(Cache->directory());
  llvm::sys::path::append(Entry, "bb", std::string(62, 'b'));
  ASSERT_TRUE(llvm::sys::fs::exists(Entry));
  {
    std::error_code EC;
    // The entry again, its standard output cut short.
    llvm::raw_fd_ostream Out(Entry, EC);
    ASSERT_FALSE(EC);
    Out << "cuda-tidy cache entry 1\n0\n100\nshort";
  }
  EXPECT_FALSE(Cache->lookup(Key));
}

TEST_F(ResultCacheTest, AFileOutsideTheDatabaseHasNoKey) {
  EXPECT_FALSE(Cache->keyFor("/nowhere/k.cu"));
}

} // namespace
