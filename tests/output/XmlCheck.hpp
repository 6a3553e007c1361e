#pragma once
// A small XML well-formedness checker for the SVG tests: one root element, every tag closed in
// order, attribute values quoted, no attribute repeated, only the five predefined entities or
// numeric character references, no '<' or bare '&' in text. Enough to catch what a hand-written
// SVG writer can get wrong; not a validating parser (no DTDs, CDATA or namespaces checks).
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace pvi::output::test {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
};

// Returns "" when well formed, else a description of the first problem. Collects every element
// (in document order) into `elements` when given.
inline std::string checkXml(const std::string& doc, std::vector<XmlElement>* elements = nullptr) {
  std::vector<std::string> open;
  std::size_t i = 0, roots = 0;
  const auto isNameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.'; };
  const auto checkText = [&](std::size_t from, std::size_t to) -> std::string {
    for (std::size_t k = from; k < to; ++k) {
      if (doc[k] == '<') return "'<' in text at " + std::to_string(k);
      if (doc[k] == '&') {
        const std::size_t semi = doc.find(';', k);
        if (semi == std::string::npos || semi > to) return "unterminated entity at " + std::to_string(k);
        const std::string ent = doc.substr(k + 1, semi - k - 1);
        static const std::set<std::string> known = {"amp", "lt", "gt", "quot", "apos"};
        const bool numeric = ent.size() > 1 && ent[0] == '#';
        if (!known.count(ent) && !numeric) return "unknown entity &" + ent + ";";
      }
    }
    return "";
  };
  while (i < doc.size()) {
    const std::size_t lt = doc.find('<', i);
    const std::size_t textEnd = lt == std::string::npos ? doc.size() : lt;
    if (std::string e = checkText(i, textEnd); !e.empty()) return e;
    if (open.empty()) {
      for (std::size_t k = i; k < textEnd; ++k) {
        if (!std::isspace(static_cast<unsigned char>(doc[k]))) return "text outside the root element";
      }
    }
    if (lt == std::string::npos) break;
    if (doc.compare(lt, 5, "<?xml") == 0) {
      if (lt != 0) return "XML declaration not at the start";
      const std::size_t end = doc.find("?>", lt);
      if (end == std::string::npos) return "unterminated XML declaration";
      i = end + 2;
      continue;
    }
    if (doc.compare(lt, 4, "<!--") == 0) {
      const std::size_t end = doc.find("-->", lt);
      if (end == std::string::npos) return "unterminated comment";
      i = end + 3;
      continue;
    }
    std::size_t k = lt + 1;
    const bool closing = k < doc.size() && doc[k] == '/';
    if (closing) ++k;
    const std::size_t nameStart = k;
    while (k < doc.size() && isNameChar(doc[k])) ++k;
    const std::string name = doc.substr(nameStart, k - nameStart);
    if (name.empty()) return "tag without a name at " + std::to_string(lt);
    if (closing) {
      while (k < doc.size() && std::isspace(static_cast<unsigned char>(doc[k]))) ++k;
      if (k >= doc.size() || doc[k] != '>') return "malformed closing tag </" + name;
      if (open.empty() || open.back() != name) return "closing </" + name + "> does not match the open element";
      open.pop_back();
      i = k + 1;
      continue;
    }
    XmlElement element{name, {}};
    std::set<std::string> seen;
    bool selfClosing = false;
    while (true) {
      const std::size_t before = k;
      while (k < doc.size() && std::isspace(static_cast<unsigned char>(doc[k]))) ++k;
      if (k >= doc.size()) return "unterminated tag <" + name;
      if (doc[k] == '>') break;
      if (doc.compare(k, 2, "/>") == 0) {
        selfClosing = true;
        ++k;
        break;
      }
      if (k == before) return "missing space before an attribute in <" + name;
      const std::size_t attrStart = k;
      while (k < doc.size() && isNameChar(doc[k])) ++k;
      const std::string attr = doc.substr(attrStart, k - attrStart);
      if (attr.empty() || k >= doc.size() || doc[k] != '=') return "malformed attribute in <" + name;
      ++k;
      if (k >= doc.size() || (doc[k] != '"' && doc[k] != '\'')) return "unquoted attribute " + attr + " in <" + name;
      const char quote = doc[k];
      const std::size_t valueEnd = doc.find(quote, k + 1);
      if (valueEnd == std::string::npos) return "unterminated attribute " + attr;
      if (std::string e = checkText(k + 1, valueEnd); !e.empty()) return "attribute " + attr + ": " + e;
      if (!seen.insert(attr).second) return "repeated attribute " + attr + " in <" + name;
      element.attributes.emplace_back(attr, doc.substr(k + 1, valueEnd - k - 1));
      k = valueEnd + 1;
    }
    if (open.empty() && ++roots > 1) return "more than one root element";
    if (elements) elements->push_back(element);
    if (!selfClosing) open.push_back(name);
    i = k + 1;
  }
  if (!open.empty()) return "element <" + open.back() + "> is never closed";
  if (roots == 0) return "no root element";
  return "";
}

}  // namespace pvi::output::test
