// Input echoed in data errors is shortened: a 1 MiB cell, header, key or label shows its first
// characters and its length, never the whole text (which once put 2 MB on stderr).
#include <gtest/gtest.h>

#include "data_test_support.hpp"

namespace pvi::test {
namespace {

const char* const kMessageModel = kClientRegressionModel;
const char* const kMessageShared = kClientRegressionShared;
const size_t kMiB = size_t{1} << 20;
const std::string kHuge = std::string(kMiB, 'q');
// What a shortened echo of kHuge shows: its first characters, then its length.
const std::string kHugeShown = std::string(kMessageTextChars, 'q') + "...";
const std::string kHugeLength = "(1048576 characters)";

class MessageText : public ::testing::Test {
 protected:
  void SetUp() override { schema_ = schemaOf(kMessageModel); }
  DataInputError csvError(const std::string& csv) {
    return dataError([&] {
      DataTexts t;
      t.sharedJson = text("data.json", kMessageShared);
      t.partitionCsv = text("clients.csv", csv);
      loadDataTexts(schema_, t);
    });
  }
  DataInputError jsonError(const std::string& json) {
    return dataError([&] {
      DataTexts t;
      t.sharedJson = text("data.json", json);
      t.partitionCsv = text("clients.csv", "client,y,X.1,X.2,z\na,0.5,1,2,0\nb,1.5,3,4,1\n");
      loadDataTexts(schema_, t);
    });
  }
  DataSchema schema_;
};

// The message is short, names where, and shows the start and the length of the long text.
void expectShortened(const DataInputError& e, const std::string& where) {
  const std::string what = e.what();
  EXPECT_LT(what.size(), 600u) << what.substr(0, 600);
  EXPECT_TRUE(contains(what, where)) << what.substr(0, 600);
  EXPECT_TRUE(contains(what, kHugeShown)) << what.substr(0, 600);
  EXPECT_TRUE(contains(what, kHugeLength)) << what.substr(0, 600);
}

TEST(QuotedText, ShortTextIsWholeLongTextIsCutAtACharacter) {
  EXPECT_EQ(pvi::quoted("spam"), "\"spam\"");
  EXPECT_EQ(pvi::quoted("say \"hi\"\n"), "\"say \\\"hi\\\"\\x0A\"");
  EXPECT_EQ(named("X.3"), "'X.3'");
  EXPECT_EQ(named("a\nb"), "'a\\x0Ab'");
  EXPECT_EQ(clipped("site"), "site");
  const std::string exact(kMessageTextChars, 'a');
  EXPECT_EQ(pvi::quoted(exact), "\"" + exact + "\"");
  EXPECT_EQ(pvi::quoted(exact + "b"), "\"" + exact + "...\" (61 characters)");
  EXPECT_EQ(named(kHuge), "'" + kHugeShown + "' " + kHugeLength);
  EXPECT_EQ(clipped(kHuge), kHugeShown + " " + kHugeLength);
  // Characters, not bytes: 70 two-byte characters are cut after 60 of them, whole.
  std::string umlauts;
  for (int i = 0; i < 70; ++i) umlauts += "\xC3\xBC";
  EXPECT_EQ(pvi::quoted(umlauts), "\"" + umlauts.substr(0, 120) + "...\" (70 characters)");
}

TEST_F(MessageText, HugeCsvCell) {
  expectShortened(csvError("client,y,X.1,X.2,z\na," + kHuge + ",1,2,0\nb,1.5,3,4,1\n"), "clients.csv:2:");
}

TEST_F(MessageText, HugeCsvLabelLikeCellInAnIntColumn) {
  // Not a number: the hint suggests a mapping only when it can show the labels whole.
  DataInputError e = csvError("client,y,X.1,X.2,z\na,0.5,1,2," + kHuge + "\nb,1.5,3,4,1\n");
  expectShortened(e, "clients.csv:2:");
  EXPECT_FALSE(contains(e.what(), "--map")) << std::string(e.what()).substr(0, 600);
}

TEST_F(MessageText, HugeCsvHeader) {
  expectShortened(csvError("client,y,X.1,X.2,z," + kHuge + "\na,0.5,1,2,0,1\nb,1.5,3,4,1,1\n"), "clients.csv:1:");
}

TEST_F(MessageText, HugeCsvHeaderTwice) {
  const std::string csv = "client,y,X.1,X.2,z," + kHuge + "," + kHuge + "\na,0.5,1,2,0,1,1\nb,1.5,3,4,1,1,1\n";
  expectShortened(csvError(csv), "clients.csv:1:");
}

TEST_F(MessageText, HugePartitionColumnName) {
  DataInputError e = dataError([&] {
    DataTexts t;
    t.sharedJson = text("data.json", kMessageShared);
    t.partitionCsv = text("clients.csv", "client,y,X.1,X.2,z\na,0.5,1,2,0\nb,1.5,3,4,1\n");
    t.partitionBy = kHuge;
    loadDataTexts(schema_, t);
  });
  expectShortened(e, "clients.csv:1:");
}

TEST_F(MessageText, HugeJsonKey) {
  // An undeclared key is ignored (as CmdStan does), and the note naming it is short.
  DataTexts t;
  t.sharedJson = text("data.json", R"({"D": 2, "sigma": 1.5, ")" + kHuge + R"(": 1})");
  t.partitionCsv = text("clients.csv", "client,y,X.1,X.2,z\na,0.5,1,2,0\nb,1.5,3,4,1\n");
  const BoundData d = loadDataTexts(schema_, t);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_LT(d.notes[0].size(), 600u) << d.notes[0].substr(0, 600);
  EXPECT_TRUE(contains(d.notes[0], "data.json:")) << d.notes[0].substr(0, 600);
  EXPECT_TRUE(contains(d.notes[0], kHugeShown)) << d.notes[0].substr(0, 600);
  EXPECT_TRUE(contains(d.notes[0], kHugeLength)) << d.notes[0].substr(0, 600);
  // The same key twice is an error, with a short message.
  expectShortened(jsonError(R"({"D": 2, "sigma": 1.5, ")" + kHuge + R"(": 1, ")" + kHuge + R"(": 2})"), "data.json:");
}

TEST_F(MessageText, HugeJsonString) {
  DataInputError e = jsonError(R"({"D": 2, "sigma": ")" + kHuge + R"("})");
  expectShortened(e, "data.json:");
  EXPECT_FALSE(contains(e.what(), "--map")) << std::string(e.what()).substr(0, 600);
}

TEST_F(MessageText, HugeTokenInMalformedJson) {
  // nlohmann echoes the token it was reading: here the whole string up to the bad line break.
  DataInputError e = jsonError(R"({"D": 2, "sigma": ")" + kHuge + "\n\"}");
  EXPECT_EQ(e.kind(), DataErrorKind::Syntax);
  const std::string what = e.what();
  EXPECT_LT(what.size(), 600u) << what.substr(0, 600);
  EXPECT_EQ(what.rfind("data.json:1:1048596: malformed JSON: ", 0), 0u) << what.substr(0, 600);
  // The token is the string read so far, its opening quote included.
  EXPECT_TRUE(contains(what, "last read: '\"" + std::string(kMessageTextChars - 1, 'q') + "...' (1048585 characters)"))
      << what.substr(0, 600);
}

TEST_F(MessageText, HugeMappingColumn) {
  DataInputError e = dataError([&] {
    DataTexts t;
    t.sharedJson = text("data.json", kMessageShared);
    t.partitionCsv = text("clients.csv", "client,y,X.1,X.2,z\na,0.5,1,2,0\nb,1.5,3,4,1\n");
    t.mappings = {CategoricalMapping{kHuge, {{"yes", 1}}}};
    loadDataTexts(schema_, t);
  });
  const std::string what = e.what();
  EXPECT_LT(what.size(), 600u) << what.substr(0, 600);
  EXPECT_TRUE(contains(what, kHugeLength)) << what.substr(0, 600);
}

}  // namespace
}  // namespace pvi::test
