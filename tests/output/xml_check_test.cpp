// The test-side XML checker must reject what it is there to catch, or the SVG tests prove nothing.
#include <gtest/gtest.h>

#include "XmlCheck.hpp"

namespace pvi::output::test {
namespace {

TEST(XmlCheck, AcceptsWellFormedDocuments) {
  EXPECT_EQ(checkXml("<?xml version=\"1.0\"?>\n<svg a=\"1\" b='2'><g><text>x &amp; y &#38;</text></g><line/></svg>\n"), "");
}

TEST(XmlCheck, RejectsMalformedDocuments) {
  EXPECT_NE(checkXml("<svg><g></svg>"), "");             // unclosed element
  EXPECT_NE(checkXml("<svg></g></svg>"), "");            // stray closing tag
  EXPECT_NE(checkXml("<svg><text>a < b</text></svg>"), "");
  EXPECT_NE(checkXml("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(checkXml("<svg a=1></svg>"), "");            // unquoted attribute
  EXPECT_NE(checkXml("<svg a=\"1\" a=\"2\"></svg>"), "");  // repeated attribute
  EXPECT_NE(checkXml("<svg a=\"x<y\"></svg>"), "");
  EXPECT_NE(checkXml("<svg></svg><svg></svg>"), "");     // two roots
  EXPECT_NE(checkXml("<svg"), "");
  EXPECT_NE(checkXml(""), "");
}

}  // namespace
}  // namespace pvi::output::test
