//===- MetadataSchemaTest.cpp - the variant JSON: writer, reader, docs ----===//
//
// One schema in three places: the writer (lib/Driver/Metadata.cpp), the reader
// (lib/Harness/KernelMetadata.cpp) and docs/Artifacts.md. These tests tie them together: what
// the writer emits the reader accepts, every key it emits is documented, and the documented
// example is a document the reader accepts.
//
//===----------------------------------------------------------------------===//
#include "tessel/Artifacts/VariantSchema.h"
#include "tessel/Driver/Metadata.h"
#include "tessel/Harness/KernelMetadata.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

using namespace tessel;
using namespace tessel::driver;

namespace {

/// Every optional field set, so that the writer emits every key it knows.
VariantMetadata fullVariant() {
  VariantMetadata m;
  m.kernel = "softmax";
  m.variant = "softmax__bf16__BLOCK_64";
  m.source = "/abs/softmax.cpp";
  m.dtype = "bf16";
  m.target = "cuda:sm_90a";
  m.args = {{"out", "ptr", "bf16", 16, std::nullopt}, {"n", "scalar", "i64", 8, 64}};
  m.config = llvm::json::Object{{"BLOCK", 64}, {"ACT", "relu"}};
  m.numWarps = 8;
  m.numStages = 2;
  m.artifacts = {{"tile", "softmax__bf16__BLOCK_64.tile.mlir"},
                 {"cubin", "softmax__bf16__BLOCK_64.cubin"}};
  m.threadsPerWarp = 32;
  m.sharedMemory = 256;
  m.resources = KernelResources{40, 256, 0, 2};
  m.binaryMetadata = llvm::json::Object{{"args", llvm::json::Array{}}};
  m.specializes = "softmax__bf16__BLOCK_32";
  return m;
}

std::string readDocs() {
  auto buf = llvm::MemoryBuffer::getFile(TESSEL_SOURCE_DIR "/docs/Artifacts.md");
  return buf ? (*buf)->getBuffer().str() : "";
}

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

} // namespace

TEST(MetadataSchema, WriterOutputIsReadBack) {
  VariantMetadata v = fullVariant();
  std::string path = writeTemp(v.variant + ".json", llvm::formatv("{0:2}", toJSON(v)).str());
  harness::KernelMetadata m;
  harness::Status s = harness::loadKernelMetadata(path, m);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(m.kernel, v.kernel);
  EXPECT_EQ(m.function, v.variant);
  EXPECT_EQ(m.target, v.target);
  EXPECT_EQ(m.dtype, "bf16");
  EXPECT_EQ(m.numWarps, 8);
  EXPECT_EQ(m.numStages, 2);
  EXPECT_EQ(m.threadsPerWarp, 32);
  EXPECT_EQ(m.sharedMemory, 256);
  EXPECT_EQ(m.specializes, *v.specializes);
  ASSERT_EQ(m.args.size(), 2u);
  EXPECT_EQ(m.args[0].type, "!tile.ptr<bf16>");
  EXPECT_EQ(m.args[1].divisibility, 8);
  EXPECT_EQ(m.args[1].equalTo, 64);
  EXPECT_EQ(m.config.at("BLOCK"), 64);
  EXPECT_EQ(m.configText.at("ACT"), "relu");
  EXPECT_NE(m.files.at("cubin").find("softmax__bf16__BLOCK_64.cubin"), std::string::npos);
  ASSERT_TRUE(m.resources.has_value());
  EXPECT_EQ(m.resources->registers, 40);
  EXPECT_EQ(m.resources->sharedBytes, 256);
  EXPECT_EQ(m.resources->spillBytes, 0);
  EXPECT_EQ(m.resources->occupancyHint, 2);
}

// Unknown resources are written as null, never left out, and read back as unknown.
TEST(MetadataSchema, UnknownResourcesAreNull) {
  VariantMetadata v = fullVariant();
  v.resources = KernelResources{std::nullopt, 256, std::nullopt, std::nullopt};
  llvm::json::Value doc = toJSON(v);
  const llvm::json::Object *r = doc.getAsObject()->getObject("resources");
  ASSERT_TRUE(r);
  for (const char *key : {"registers", "spill_bytes", "occupancy_hint"}) {
    ASSERT_TRUE(r->get(key)) << key;
    EXPECT_EQ(r->get(key)->kind(), llvm::json::Value::Null) << key;
  }
  std::string path = writeTemp("null-resources.json", llvm::formatv("{0}", doc).str());
  harness::KernelMetadata m;
  ASSERT_TRUE(harness::loadKernelMetadata(path, m).isOk());
  EXPECT_FALSE(m.resources->registers.has_value());
  EXPECT_EQ(m.resources->sharedBytes, 256);
}

// docs/Artifacts.md has a table row "| `key` |" for every key the writer emits at the top
// level, in an args entry and in the resources record, and names the compiler's keys.
TEST(MetadataSchema, DocsDescribeEveryKeyTheWriterEmits) {
  std::string docs = readDocs();
  ASSERT_FALSE(docs.empty()) << "cannot read docs/Artifacts.md";
  llvm::json::Value doc = toJSON(fullVariant());
  const llvm::json::Object &top = *doc.getAsObject();
  auto expectRows = [&](const llvm::json::Object &o, const std::string &where) {
    for (const auto &kv : o)
      EXPECT_NE(docs.find("| `" + kv.first.str() + "` |"), std::string::npos)
          << where << " key \"" << kv.first.str() << "\" has no row in docs/Artifacts.md";
  };
  expectRows(top, "top-level");
  expectRows(*top.getArray("args")->front().getAsObject(), "args entry");
  expectRows(*top.getObject("resources"), "resources");
  for (const auto &kv : *top.getObject("compiler"))
    EXPECT_NE(docs.find("`" + kv.first.str() + "`"), std::string::npos) << kv.first.str();
}

// The example in docs/Artifacts.md states this schema and is a document the reader accepts.
TEST(MetadataSchema, DocsExampleIsCurrent) {
  std::string docs = readDocs();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(docs, m, std::regex("```json\n([^`]*)```")));
  std::string example = m[1].str();
  EXPECT_NE(example.find("\"schema\": " + std::to_string(artifacts::kVariantSchema) + ","),
            std::string::npos);
  std::string path = writeTemp("docs-example.json", example);
  harness::KernelMetadata meta;
  harness::Status s = harness::loadKernelMetadata(path, meta);
  EXPECT_TRUE(s.isOk()) << s.message();
}
