#include "compiler/driver/ModelFile.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pvi {

ModelFileText readModelFile(const std::string& path) {
  ModelFileText out;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    out.error = "cannot read '" + path + "': it is a directory";
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.error = "cannot read '" + path + "': " + std::strerror(errno);
    return out;
  }
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) {  // not seekable (a pipe): read it whole
    in.clear();
    in.seekg(0);
  } else if (size > kMaxModelFileBytes) {
    out.error = path + ": error: the file is " + std::to_string(size) + " bytes; a model file may be at most " +
                std::to_string(kMaxModelFileBytes) + " bytes (1 MiB)";
    out.tooLarge = true;
    return out;
  }
  in.seekg(0);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) {
    out.error = "error reading '" + path + "'";
    return out;
  }
  out.text = buf.str();
  return out;
}

std::string modelName(const std::string& path) {
  std::filesystem::path p = std::filesystem::absolute(path);
  if (p.stem() == "model" && !p.parent_path().filename().empty()) return p.parent_path().filename().string();
  return p.stem().string();
}

}  // namespace pvi
