//===- ConfigTest.cpp - config reflection, -D overrides, variant names ----===//
#include "KernelRegistry.h"

#include <gtest/gtest.h>

using namespace tessel::dsl;

namespace cfgtest {
TESSEL_ENUM(Act, none, relu, gelu)
struct Config {
  int BLOCK = 128;
  bool MASKED = false;
  Act ACT = Act::none;
  double EPS = 1e-6;
  int num_warps = 8;
};
TESSEL_CONFIG(Config, BLOCK, MASKED, ACT, EPS, num_warps)
struct NoKnobs {
  int BLOCK = 1;
};
TESSEL_CONFIG(NoKnobs, BLOCK)
} // namespace cfgtest

TEST(Config, SchemaFormatAndJSON) {
  const detail::ConfigSchema &schema = detail::configSchema<cfgtest::Config>();
  ASSERT_EQ(schema.numFields, 5);
  EXPECT_STREQ(schema.typeName, "Config");
  cfgtest::Config c;
  ConfigValue v(schema, &c);
  EXPECT_EQ(v.format(schema.fields[0]), "128");
  EXPECT_EQ(v.format(schema.fields[1]), "false");
  EXPECT_EQ(v.format(schema.fields[2]), "none");
  EXPECT_EQ(v.format(schema.fields[3]), "1e-06");
  EXPECT_EQ(v.numWarps(), 8);
  EXPECT_EQ(v.numStages(), 1);
  llvm::json::Object o = v.toJSON();
  EXPECT_EQ(*o.getInteger("BLOCK"), 128);
  EXPECT_EQ(*o.getBoolean("MASKED"), false);
  EXPECT_EQ(*o.getString("ACT"), "none");
}

TEST(Config, Overrides) {
  const detail::ConfigSchema &schema = detail::configSchema<cfgtest::Config>();
  cfgtest::Config c;
  ConfigValue v(schema, &c);
  EXPECT_FALSE(llvm::errorToBool(v.set("BLOCK", "4096")));
  EXPECT_FALSE(llvm::errorToBool(v.set("MASKED", "true")));
  EXPECT_FALSE(llvm::errorToBool(v.set("ACT", "gelu")));
  EXPECT_FALSE(llvm::errorToBool(v.set("EPS", "0.5")));
  const auto &set = *static_cast<const cfgtest::Config *>(v.get());
  EXPECT_EQ(set.BLOCK, 4096);
  EXPECT_TRUE(set.MASKED);
  EXPECT_EQ(set.ACT, cfgtest::Act::gelu);
  EXPECT_EQ(set.EPS, 0.5);
  EXPECT_EQ(c.BLOCK, 128) << "the registered config is not modified";
  EXPECT_TRUE(llvm::errorToBool(v.set("BLOCK", "x")));
  EXPECT_TRUE(llvm::errorToBool(v.set("ACT", "swish")));
  EXPECT_TRUE(llvm::errorToBool(v.set("MASKED", "yes")));
  EXPECT_TRUE(llvm::errorToBool(v.set("NOPE", "1")));
}

TEST(Config, DefaultsWithoutNumWarps) {
  cfgtest::NoKnobs c;
  ConfigValue v(detail::configSchema<cfgtest::NoKnobs>(), &c);
  EXPECT_EQ(v.numWarps(), 4);
  EXPECT_EQ(v.numStages(), 1);
}
