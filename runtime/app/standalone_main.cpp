// main() of the executables `pvic build` links: the model's object file provides the symbols
// that linkedModel() reads.
#include <iostream>

#include "runtime/app/Cli.hpp"
#include "runtime/app/LinkedModel.hpp"

int main(int argc, char** argv) {
  try {
    return pvi::app::standaloneMain(argc, argv, pvi::linkedModel());
  } catch (const std::exception& e) {
    std::cerr << (argc > 0 ? argv[0] : "model") << ": error: " << e.what() << "\n";
    return pvi::app::kExitInvalid;
  }
}
