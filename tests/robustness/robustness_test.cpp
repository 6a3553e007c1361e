// Robustness test for `pvic check`, and beyond it for lowering, AD, LLVM and the fit.
//
// Feeds some 1,300-1,600 random, mutated and pathological inputs to `pvic check`, each in its own
// process (fork/exec, the input in a temporary file), and requires every run to end in an orderly
// way:
//   * exit code 0 (valid) or 1 (invalid) -- never a signal, never 2 for a readable file;
//   * exit code 1 comes with a non-empty diagnostic on stderr that names the file;
//   * at most kWallLimitSeconds of wall time (the child is killed beyond it), at most kMaxRssKb
//     peak resident memory (wait4 rusage), at most kMaxOutputBytes of output.
// Every mutant of a seed model that `pvic check` accepts goes further (see runPipeline): through
// `pvic --dump-llvm` (lowering, reverse-mode AD, LLVM code generation and optimisation), then,
// when its seed has data (the examples, and the built-in Six Cities model with the six_cities
// data), through a short `pvic run` on that data (JIT, data binding, one round of the fit). Each
// of those runs under the same limits (with its own time limit), must end in a documented exit
// code that makes sense there (0 or 1 for --dump-llvm; 0, 1 or 3 for run: 2 means an unreadable
// input or bad usage and 4 an unwritable output, neither of which the test gives it), and must
// say why on stderr when it fails. The mutants of MutatedSeeds rarely pass the checker (most
// edits break the syntax or land in comments), so SemanticMutantsLowerAndRun adds mutants of the
// examples and of a single-partition grammar tour, made by edits that keep a model well-formed
// more often: numbers, operators, distributions and functions swapped for others of their kind,
// signs flipped, statements repeated or dropped. Failures of a known bug are listed in
// kKnownFailures (reported, not counted).
// The children run under an address-space limit (RLIMIT_AS), so a memory blow-up ends in
// std::bad_alloc -> abort, which counts as a failure like any other signal, and RLIMIT_FSIZE
// stops runaway diagnostics early (SIGXFSZ).
//
// Every input is generated deterministically from kSeed (std::mt19937_64) and the seed models:
// the built-in ones below plus examples/*/model.pvi found at run time (those get their own
// random streams, so the built-in cases do not change when examples are added). A failing input
// is kept on disk; the failure message names it, gives the command that reproduces the failure
// and says how it was generated.
//
// Environment knobs (all optional):
//   PVI_ROBUSTNESS_SEED=N         use another seed (default kSeed)
//   PVI_ROBUSTNESS_SCALE=K        K times as many mutated and random inputs (default 1)
//   PVI_ROBUSTNESS_JOBS=N         parallel workers (default 2)
//   PVI_ROBUSTNESS_DIR=DIR        where inputs are written (default: a fresh directory in $TMPDIR)
//   PVI_ROBUSTNESS_KEEP=1         keep every input, not only the failing ones
//   PVI_ROBUSTNESS_AS_LIMIT_MB=N  address-space limit of the children (default 4096; 0 = none,
//                                 needed when pvic itself is built with AddressSanitizer)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Limits

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ull;
constexpr double kWallLimitSeconds = 5.0;
// --dump-llvm and the short run take well under a second each (the slowest example, 60
// partitions, about 0.8 s); these limits only catch hangs, with room for a loaded machine.
constexpr double kDumpWallLimitSeconds = 30.0;
constexpr double kRunWallLimitSeconds = 60.0;
constexpr long kMaxRssKb = 2L * 1024 * 1024;                  // 2 GiB
constexpr uint64_t kDefaultAddressSpaceMb = 4096;              // RLIMIT_AS of the children
constexpr uint64_t kMaxOutputBytes = 16ull << 20;              // stdout or stderr beyond this is a blow-up
constexpr rlim_t kOutputFileLimit = 64ull << 20;               // RLIMIT_FSIZE: stop runaway output early
constexpr size_t kMutationsPerBuiltinSeed = 450;
constexpr size_t kMutationsPerExampleSeed = 40;
constexpr size_t kMaxReportedFailures = 25;
constexpr size_t kRandomInputsPerKind = 60;  // x5 in all (see randomCases)
constexpr size_t kSemanticMutantsPerExample = 60;

// Inputs (by id, default seed only) that fail because of a known bug: reported, not counted as
// failures. Remove an entry when its bug is fixed; with another seed every failure counts.
// (Empty: the size checks deferred to data binding, whose absence let `X_test ./ W1` with
// X_test [N_test, D] and W1 [D, H] run out of bounds, are now made by the data checks.)
const std::vector<std::string> kKnownFailures = {};

// ---------------------------------------------------------------------------------------------
// Seeds

// /tmp/t/six.pvi, the Six Cities model.
const char* const kSixCities = R"PVI(// Six Cities wheeze study: logistic mixed model; children live in silos.
@partition(silo)

data {                                  // the same for every silo, public
  real<lower=0> prior_sd;
}
data per silo {                         // private to one silo; sizes may differ per silo
  int<lower=0> C;                       // children in this silo
  int<lower=0> N;                       // observations in this silo
  array[N] int<lower=1, upper=C> child;
  vector[N] age;
  vector[N] smoke;
  array[N] int<lower=0, upper=1> wheeze;
}
global {                                // shared latents: the server sees their posterior
  vector[4] beta;
  real omega;
}
local per silo {                        // private latents: never leave the silo
  vector[C] b;
}
model {
  beta ~ normal(0, prior_sd);
  omega ~ normal(0, prior_sd);
  b ~ normal(0, exp(-omega));
  wheeze ~ bernoulli_logit(beta[1] + beta[2] * smoke + beta[3] * age
                           + beta[4] * smoke .* age + b[child]);
}
)PVI";

// A valid model that uses most of the grammar, so that mutations reach more of the front end.
const char* const kGrammarTour = R"PVI(// Grammar tour: most constructs of the language in one valid model.
@partition(site, lab)

data {
  int<lower=1> K;
  real<lower=0> scale;
  matrix[K, K] Sigma;
}
data per site {
  int<lower=0> N;
  array[N] int<lower=1, upper=K> group;
  vector[N] y;
  row_vector[K] w;
  array[N, 2] real<lower=-1, upper=2 * scale + 1> pairs;
}
data per lab {
  int<lower=0> M;
  vector<lower=0>[M] z;
}
hyper {
  real<lower=0> tau;
}
global {
  vector[K] mu;
  real<lower=0> sigma;
}
local per site {
  vector[K] theta;
}
local per lab {
  real eta;
}
model {
  real acc = 0;
  vector[K] shifted = mu + theta;
  tau ~ exponential(1);
  mu ~ multi_normal(rep_vector(0, K), Sigma);
  sigma ~ cauchy(0, 2.5);
  theta ~ normal(mu, sigma);
  eta ~ normal(0, 1);
  z ~ lognormal(eta, 1);
  for (n in 1:N) {
    if (group[n] > 1 && y[n] != 0) acc += y[n] ^ 2;
    else if (!(group[n] == 1) || n % 2 == 0) acc -= 1.5e-3;
    else { acc *= 2; acc /= 3; }
  }
  target += -0.5 * acc + .25;
  y ~ normal(shifted[group] + w * theta, sigma);
  target += normal_lpdf(y | shifted[group], sigma);
  target += sum(y[1:N] .* y ./ (y + 1)) + dot_product(w', theta) + (K > 1 ? 1 : 0) + pairs[1, 2];
}
generated {
  real m = mean(y);
  vector[K] e = exp(mu) .^ 2;
  matrix[K, K] S = Sigma * Sigma';
}
)PVI";

struct Seed {
  std::string name;
  std::string text;
  std::vector<std::string> runData;  // data options of `pvic run` for its mutants; empty: no run
};

// The data options of `pvic run` for an example: its data.json and its data_per_*.csv (the
// first, sorted). bnn_classifier uses logistic_regression's CSV (its README says so).
std::vector<std::string> exampleData(const std::string& example) {
  std::vector<std::string> args;
  const fs::path dir = fs::path(PVI_SOURCE_DIR) / "examples" / example;
  std::error_code ec;
  if (fs::is_regular_file(dir / "data.json", ec)) args.insert(args.end(), {"--data", (dir / "data.json").string()});
  std::vector<fs::path> csv;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("data_per_", 0) == 0 && e.path().extension() == ".csv") csv.push_back(e.path());
  }
  std::sort(csv.begin(), csv.end());
  if (csv.empty() && example == "bnn_classifier")
    csv.push_back(fs::path(PVI_SOURCE_DIR) / "examples" / "logistic_regression" / "data_per_client.csv");
  if (!csv.empty()) args.insert(args.end(), {"--partition-data", csv.front().string()});
  return args;
}

// The grammar tour with its two partition kinds merged into one, which code generation needs (it
// refuses the tour itself): its mutants reach lowering. It has no data, so they stop after
// --dump-llvm.
Seed singlePartitionTour() {
  std::string t = kGrammarTour;
  for (auto [from, to] : {std::pair<std::string, std::string>{"@partition(site, lab)", "@partition(site)"},
                          {"}\ndata per lab {\n", ""},
                          {"}\nlocal per lab {\n", ""}}) {
    const size_t at = t.find(from);
    if (at != std::string::npos) t.replace(at, from.size(), to);
  }
  return {"tour1", t, {}};
}

// kSixCities is examples/six_cities/model.pvi without its comments, so it runs on that data. The
// grammar tour enters with one partition kind: `pvic check` refuses what code generation cannot
// compile, two partition kinds among it.
std::vector<Seed> builtinSeeds() {
  Seed tour = singlePartitionTour();
  tour.name = "tour";
  return {{"six", kSixCities, exampleData("six_cities")}, tour};
}

std::vector<Seed> exampleSeeds() {
  std::vector<Seed> out;
  fs::path examples = fs::path(PVI_SOURCE_DIR) / "examples";
  std::error_code ec;
  if (!fs::is_directory(examples, ec)) return out;
  for (const auto& dir : fs::directory_iterator(examples, ec)) {
    fs::path model = dir.path() / "model.pvi";
    if (!fs::is_regular_file(model, ec)) continue;
    std::ifstream in(model, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (s.str().empty() || s.str().size() > (1u << 20)) continue;
    out.push_back({"examples/" + dir.path().filename().string() + "/model.pvi", s.str(),
                   exampleData(dir.path().filename().string())});
  }
  std::sort(out.begin(), out.end(), [](const Seed& a, const Seed& b) { return a.name < b.name; });
  return out;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

uint64_t baseSeed() {
  if (const char* s = std::getenv("PVI_ROBUSTNESS_SEED")) return std::strtoull(s, nullptr, 0);
  return kSeed;
}

size_t scale() {
  if (const char* s = std::getenv("PVI_ROBUSTNESS_SCALE")) return std::max<size_t>(1, std::strtoull(s, nullptr, 0));
  return 1;
}

// ---------------------------------------------------------------------------------------------
// Deterministic random helpers (no std::*_distribution: their output differs between libraries)

class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  uint64_t next() { return g_(); }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(g_() % n); }
  size_t between(size_t lo, size_t hi) { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::mt19937_64 g_;
};

const std::vector<std::string> kKeywords = {
    "data", "per", "local", "hyper", "global", "model", "generated", "array", "int", "real", "vector",
    "row_vector", "matrix", "lower", "upper", "target", "for", "in", "if", "else", "partition"};

const std::vector<std::string> kOperators = {
    "@", "(", ")", ",", "{", "}", "[", "]", "<", ">", "=", ";", "+=", "-=", "*=", "/=", "~", ":", "'", "^",
    ".^", "-", "!", "+", ".*", "./", "*", "/", "%", "<=", ">=", "==", "!=", "&&", "||", "?", "|"};

const std::vector<std::string> kFunctions = {
    "exp", "log", "sum", "mean", "sqrt", "inv_logit", "softmax", "log_sum_exp", "dot_product", "rows", "cols",
    "size", "rep_vector", "rep_matrix", "to_vector", "transpose", "abs", "pow", "fmax", "min", "max",
    "normal_lpdf", "poisson_lpmf", "bernoulli_logit_lpmf", "log_mix", "no_such_function"};

const std::vector<std::string> kDistributions = {
    "normal", "lognormal", "cauchy", "student_t", "logistic", "exponential", "gamma", "inv_gamma", "beta",
    "uniform", "bernoulli", "bernoulli_logit", "binomial", "binomial_logit", "poisson", "poisson_log",
    "neg_binomial_2", "categorical_logit", "dirichlet", "multi_normal", "multi_normal_cholesky", "exp",
    "normal_lpdf", "nromal"};

// Odd fragments: comment delimiters, invalid and unusual UTF-8, extreme literals.
const std::vector<std::string> kSnippets = {
    "/*", "*/", "//", "/**/", "\n", "\r", "\r\n", "\t", "\f", "\v", std::string(1, '\0'), "\xEF\xBB\xBF",
    "\xE2\x80\xA8", "\xC3\xA9", "\xF0\x9F\x98\x80", "\xC3", "\xE2\x82", "\xED\xA0\x80", "\xC0\xAF", "\xF4\x90\x80\x80",
    "\xFF", "\x80", "1e309", "1e-400", "9223372036854775807", "9223372036854775808", "0.", ".5", "1e", "1e+", "..",
    "::", "\"", "#", "$", "\\", "`", "per silo", "@partition(silo)", "@partition()", "model {", "data per silo {",
    "}", "{}", "()", "[]", "[:]", "[1:]", "[:2]", "|", "target += ", "~ normal(0, 1);", "_x", "x_", "é",
    "vector[N]", "array[2,3] ", "<lower=0>", "<upper=>"};

const std::vector<unsigned char> kInterestingBytes = {
    0x00, 0x01, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF, '\n', '\r', '\t',
    '\f', '\v', ' ', '/', '*', '(', ')', '{', '}', '[', ']', '<', '>', ';', ',', '\'', '"', '\\', '@', '~', '|',
    '.', 'e', 'E', '0', '9', '_', '-', '+', '=', '!', '?', ':'};

std::string randomIdent(Rng& r, size_t maxLen = 8) {
  static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  static const char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
  std::string s(1, first[r.below(sizeof first - 1)]);
  size_t n = r.below(maxLen);
  for (size_t i = 0; i < n; ++i) s += rest[r.below(sizeof rest - 1)];
  return s;
}

std::string randomNumber(Rng& r) {
  switch (r.below(8)) {
    case 0: return std::to_string(r.below(10));
    case 1: return std::to_string(r.next());  // up to 20 digits: often too large for int64
    case 2: return std::to_string(r.below(1000)) + "." + std::to_string(r.below(1000));
    case 3: return std::to_string(r.below(10)) + "e" + (r.chance(50) ? "-" : "") + std::to_string(r.below(400));
    case 4: return "." + std::to_string(r.below(100));
    case 5: return std::string(r.between(19, 40), '9');
    case 6: return "0";
    default: return std::to_string(r.below(100));
  }
}

// Any byte, an interesting byte, or a snippet.
std::string randomFragment(Rng& r) {
  switch (r.below(4)) {
    case 0: return std::string(1, static_cast<char>(r.below(256)));
    case 1: return std::string(1, static_cast<char>(r.pick(kInterestingBytes)));
    case 2: return r.pick(kSnippets);
    default: {
      std::string s;
      size_t n = r.between(1, 8);
      for (size_t i = 0; i < n; ++i) s += static_cast<char>(r.below(256));
      return s;
    }
  }
}

// Any token of the language (or a near miss).
std::string randomToken(Rng& r) {
  switch (r.below(7)) {
    case 0:
    case 1: return r.pick(kOperators);
    case 2: return r.pick(kKeywords);
    case 3: return randomIdent(r);
    case 4: return randomNumber(r);
    case 5: return r.chance(50) ? r.pick(kFunctions) : r.pick(kDistributions);
    default: return r.chance(85) ? r.pick(kOperators) : r.pick(kSnippets);
  }
}

// ---------------------------------------------------------------------------------------------
// A crude tokenizer for token-level mutations: whitespace and comments stay attached as their own
// pieces; only the other pieces are mutated.

struct Piece {
  std::string text;
  bool significant;
};

std::vector<Piece> tokenize(const std::string& s) {
  static const std::vector<std::string> multi = {".*", "./", ".^", "<=", ">=", "==", "!=", "&&", "||",
                                                 "+=", "-=", "*=", "/="};
  std::vector<Piece> out;
  size_t i = 0;
  auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < s.size()) {
    size_t start = i;
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      out.push_back({s.substr(start, i - start), false});
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out.push_back({s.substr(start, i - start), false});
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t close = s.find("*/", i + 2);
      i = close == std::string::npos ? s.size() : close + 2;
      out.push_back({s.substr(start, i - start), false});
    } else if (isIdent(c) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (isIdent(s[i]) || s[i] == '.')) ++i;
      out.push_back({s.substr(start, i - start), true});
    } else {
      size_t len = 1;
      for (const auto& m : multi)
        if (s.compare(i, m.size(), m) == 0) len = m.size();
      i += len;
      out.push_back({s.substr(start, len), true});
    }
  }
  return out;
}

std::string join(const std::vector<Piece>& pieces) {
  std::string s;
  for (const auto& p : pieces) s += p.text;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Mutators. Each applies one random edit and returns its name.

using Mutator = std::function<std::string(Rng&, std::string&, const std::vector<Seed>&)>;

std::string byteFlip(Rng& r, std::string& s, const std::vector<Seed>&) {
  if (s.empty()) return "bit-flip(empty)";
  size_t pos = r.below(s.size());
  s[pos] = static_cast<char>(s[pos] ^ (1u << r.below(8)));
  return "bit-flip@" + std::to_string(pos);
}

std::string byteSet(Rng& r, std::string& s, const std::vector<Seed>&) {
  if (s.empty()) return "byte-set(empty)";
  size_t pos = r.below(s.size());
  s[pos] = static_cast<char>(r.chance(50) ? r.pick(kInterestingBytes) : r.below(256));
  return "byte-set@" + std::to_string(pos);
}

std::string byteInsert(Rng& r, std::string& s, const std::vector<Seed>&) {
  size_t pos = r.below(s.size() + 1);
  std::string f = randomFragment(r);
  s.insert(pos, f);
  return "insert@" + std::to_string(pos) + "+" + std::to_string(f.size());
}

std::string byteDelete(Rng& r, std::string& s, const std::vector<Seed>&) {
  if (s.empty()) return "delete(empty)";
  size_t pos = r.below(s.size());
  size_t len = std::min(s.size() - pos, r.chance(60) ? size_t{1} : r.between(2, 64));
  s.erase(pos, len);
  return "delete@" + std::to_string(pos) + "-" + std::to_string(len);
}

std::string truncateAt(Rng& r, std::string& s, const std::vector<Seed>&) {
  size_t len = r.below(s.size() + 1);
  s.resize(len);
  return "truncate@" + std::to_string(len);
}

std::string chunkDuplicate(Rng& r, std::string& s, const std::vector<Seed>&) {
  if (s.empty()) return "chunk-dup(empty)";
  size_t from = r.below(s.size());
  size_t len = std::min(s.size() - from, r.between(1, 200));
  size_t times = r.chance(80) ? 1 : r.between(2, 300);
  std::string chunk = s.substr(from, len);
  std::string rep;
  for (size_t i = 0; i < times; ++i) rep += chunk;
  size_t to = r.below(s.size() + 1);
  s.insert(to, rep);
  return "chunk-dup[" + std::to_string(from) + "+" + std::to_string(len) + "]x" + std::to_string(times) + "@" +
         std::to_string(to);
}

std::string splice(Rng& r, std::string& s, const std::vector<Seed>& seeds) {
  const Seed& other = r.pick(seeds);
  size_t cut = r.below(s.size() + 1);
  size_t otherCut = r.below(other.text.size() + 1);
  s = s.substr(0, cut) + other.text.substr(otherCut);
  return "splice@" + std::to_string(cut) + "+" + other.name + "@" + std::to_string(otherCut);
}

template <class F>
std::string onTokens(std::string& s, F f) {
  std::vector<Piece> pieces = tokenize(s);
  std::vector<size_t> sig;
  for (size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].significant) sig.push_back(i);
  std::string what = f(pieces, sig);
  s = join(pieces);
  return what;
}

std::string tokenSwap(Rng& r, std::string& s, const std::vector<Seed>&) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>& sig) -> std::string {
    if (sig.size() < 2) return "token-swap(none)";
    size_t a = r.pick(sig), b = r.pick(sig);
    std::swap(p[a].text, p[b].text);
    return "token-swap#" + std::to_string(a) + "," + std::to_string(b);
  });
}

std::string tokenDuplicate(Rng& r, std::string& s, const std::vector<Seed>&) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>& sig) -> std::string {
    if (sig.empty()) return "token-dup(none)";
    size_t a = r.pick(sig);
    size_t len = r.chance(70) ? 1 : r.between(2, 12);
    size_t end = std::min(p.size(), a + len);
    std::vector<Piece> copy(p.begin() + static_cast<long>(a), p.begin() + static_cast<long>(end));
    copy.push_back({" ", false});
    p.insert(p.begin() + static_cast<long>(end), copy.begin(), copy.end());
    return "token-dup#" + std::to_string(a) + "+" + std::to_string(end - a);
  });
}

std::string tokenDelete(Rng& r, std::string& s, const std::vector<Seed>&) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>& sig) -> std::string {
    if (sig.empty()) return "token-del(none)";
    size_t a = r.pick(sig);
    size_t len = r.chance(70) ? 1 : r.between(2, 12);
    size_t end = std::min(p.size(), a + len);
    p.erase(p.begin() + static_cast<long>(a), p.begin() + static_cast<long>(end));
    return "token-del#" + std::to_string(a) + "+" + std::to_string(end - a);
  });
}

std::string tokenInsert(Rng& r, std::string& s, const std::vector<Seed>&) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>&) -> std::string {
    size_t at = r.below(p.size() + 1);
    std::string t;
    std::string kind;
    switch (r.below(4)) {
      case 0: t = r.pick(kKeywords); kind = "keyword"; break;
      case 1: t = r.pick(kOperators); kind = "operator"; break;
      case 2: t = r.chance(50) ? r.pick(kFunctions) : r.pick(kDistributions); kind = "name"; break;
      default: t = randomToken(r); kind = "token"; break;
    }
    p.insert(p.begin() + static_cast<long>(at), {{" ", false}, {t, true}, {" ", false}});
    return "insert-" + kind + "'" + t + "'#" + std::to_string(at);
  });
}

std::string tokenReplace(Rng& r, std::string& s, const std::vector<Seed>&) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>& sig) -> std::string {
    if (sig.empty()) return "token-replace(none)";
    size_t a = r.pick(sig);
    p[a].text = randomToken(r);
    return "token-replace#" + std::to_string(a) + "'" + p[a].text + "'";
  });
}

// Moves a run of tokens elsewhere (reorders statements, blocks, arguments).
std::string tokenMove(Rng& r, std::string& s, const std::vector<Seed>&) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>& sig) -> std::string {
    if (sig.size() < 2) return "token-move(none)";
    size_t a = r.pick(sig);
    size_t end = std::min(p.size(), a + r.between(1, 20));
    std::vector<Piece> run(p.begin() + static_cast<long>(a), p.begin() + static_cast<long>(end));
    p.erase(p.begin() + static_cast<long>(a), p.begin() + static_cast<long>(end));
    size_t to = r.below(p.size() + 1);
    run.insert(run.begin(), {" ", false});
    run.push_back({" ", false});
    p.insert(p.begin() + static_cast<long>(to), run.begin(), run.end());
    return "token-move#" + std::to_string(a) + "+" + std::to_string(end - a) + "->" + std::to_string(to);
  });
}

struct MutatorKind {
  const char* name;
  Mutator fn;
};

const std::vector<MutatorKind>& mutators() {
  static const std::vector<MutatorKind> m = {
      {"bit-flip", byteFlip},       {"byte-set", byteSet},          {"byte-insert", byteInsert},
      {"byte-delete", byteDelete},  {"truncate", truncateAt},       {"chunk-dup", chunkDuplicate},
      {"splice", splice},           {"token-swap", tokenSwap},      {"token-dup", tokenDuplicate},
      {"token-delete", tokenDelete}, {"token-insert", tokenInsert}, {"token-replace", tokenReplace},
      {"token-move", tokenMove}};
  return m;
}

// ---------------------------------------------------------------------------------------------
// Random programs that roughly follow the grammar, to reach the checker with odd combinations.

class ProgramGenerator {
 public:
  explicit ProgramGenerator(Rng& r) : r_(r) {}

  std::string program() {
    std::string s;
    partitions_ = {randomIdent(r_, 4)};
    if (r_.chance(30)) partitions_.push_back(randomIdent(r_, 4));
    if (r_.chance(80)) {
      s += "@partition(";
      for (size_t i = 0; i < partitions_.size(); ++i) s += (i ? ", " : "") + partitions_[i];
      s += ")\n";
    }
    static const std::vector<std::string> kinds = {"data", "data per", "hyper", "global", "local per", "model",
                                                   "generated"};
    for (size_t k = 0; k < kinds.size(); ++k) {
      size_t copies = r_.chance(70) ? 1 : r_.below(3);
      for (size_t c = 0; c < copies; ++c) {
        const std::string& kind = r_.chance(90) ? kinds[k] : r_.pick(kinds);
        s += kind;
        if (kind.find("per") != std::string::npos) s += " " + (r_.chance(90) ? r_.pick(partitions_) : randomIdent(r_));
        s += " {\n";
        bool decls = kind != "model" && kind != "generated";
        size_t n = r_.between(0, 6);
        for (size_t i = 0; i < n; ++i) s += "  " + (decls && r_.chance(90) ? declaration(true) : statement(3)) + "\n";
        s += "}\n";
      }
    }
    return s;
  }

 private:
  std::string name() {
    if (!names_.empty() && r_.chance(85)) return r_.pick(names_);
    return r_.chance(50) ? randomIdent(r_, 6) : r_.pick(kKeywords);
  }

  std::string bound() {
    std::string s = "<";
    if (r_.chance(70)) s += "lower=" + expr(1);
    if (r_.chance(50)) s += std::string(s.size() > 1 ? ", " : "") + "upper=" + expr(1);
    return s + ">";
  }

  std::string type(bool bounds) {
    std::string s;
    if (r_.chance(25)) {
      s += "array[" + expr(1);
      if (r_.chance(30)) s += ", " + expr(1);
      s += "] ";
    }
    std::string b = bounds && r_.chance(40) ? bound() : "";
    switch (r_.below(5)) {
      case 0: return s + "int" + b;
      case 1: return s + "real" + b;
      case 2: return s + "vector" + b + "[" + expr(1) + "]";
      case 3: return s + "row_vector" + b + "[" + expr(1) + "]";
      default: return s + "matrix" + b + "[" + expr(1) + ", " + expr(1) + "]";
    }
  }

  std::string declaration(bool bounds) {
    std::string n = r_.chance(80) ? randomIdent(r_, 5) : name();
    std::string s = type(bounds) + " " + n;
    if (r_.chance(bounds ? 10 : 50)) s += " = " + expr(3);
    names_.push_back(n);
    return s + ";";
  }

  std::string index() {
    switch (r_.below(6)) {
      case 0: return ":";
      case 1: return expr(1) + ":";
      case 2: return ":" + expr(1);
      case 3: return expr(1) + ":" + expr(1);
      default: return expr(2);
    }
  }

  std::string expr(int depth) {
    if (depth <= 0 || r_.chance(25)) {
      switch (r_.below(4)) {
        case 0: return randomNumber(r_);
        default: return name();
      }
    }
    static const std::vector<std::string> binary = {"+", "-", "*", "/", "%", ".*", "./", "^", ".^", "<", "<=",
                                                    ">", ">=", "==", "!=", "&&", "||"};
    switch (r_.below(9)) {
      case 0:
      case 1: return expr(depth - 1) + " " + r_.pick(binary) + " " + expr(depth - 1);
      case 2: return std::string(1, "-!+"[r_.below(3)]) + expr(depth - 1);
      case 3: {
        std::string f = r_.pick(kFunctions);
        std::string s = f + "(";
        size_t n = r_.below(4);
        for (size_t i = 0; i < n; ++i) s += (i ? (i == 1 && f.find("_lp") != std::string::npos ? " | " : ", ") : "") +
                                            expr(depth - 1);
        return s + ")";
      }
      case 4: {
        std::string s = expr(depth - 1) + "[" + index();
        if (r_.chance(30)) s += ", " + index();
        return s + "]";
      }
      case 5: return expr(depth - 1) + "'";
      case 6: return expr(depth - 1) + " ? " + expr(depth - 1) + " : " + expr(depth - 1);
      default: return "(" + expr(depth - 1) + ")";
    }
  }

  std::string statement(int depth) {
    switch (depth <= 0 ? r_.below(4) : r_.below(8)) {
      case 0: {
        std::string d = r_.pick(kDistributions);
        std::string s = expr(2) + " ~ " + d + "(";
        size_t n = r_.below(4);
        for (size_t i = 0; i < n; ++i) s += (i ? ", " : "") + expr(2);
        return s + ");";
      }
      case 1: return declaration(false);
      case 2: return "target += " + expr(3) + ";";
      case 3: {
        static const std::vector<std::string> ops = {"=", "+=", "-=", "*=", "/="};
        return expr(1) + " " + r_.pick(ops) + " " + expr(3) + ";";
      }
      case 4: {
        std::string v = randomIdent(r_, 3);
        names_.push_back(v);
        return "for (" + v + " in " + expr(1) + ":" + expr(1) + ") " + statement(depth - 1);
      }
      case 5: {
        std::string s = "if (" + expr(2) + ") " + statement(depth - 1);
        if (r_.chance(40)) s += " else " + statement(depth - 1);
        return s;
      }
      default: {
        std::string s = "{ ";
        size_t n = r_.below(4);
        for (size_t i = 0; i < n; ++i) s += statement(depth - 1) + " ";
        return s + "}";
      }
    }
  }

  Rng& r_;
  std::vector<std::string> names_;
  std::vector<std::string> partitions_;
};

// ---------------------------------------------------------------------------------------------
// Test cases

struct Case {
  std::string id;           // file name stem, unique
  std::string description;  // how the input was made
  std::string text;
  bool expectValid = false;  // must exit 0, not only 0 or 1
  // When `pvic check` accepts it: --dump-llvm, then a short `pvic run` with these data options
  // (none: no run). See runPipeline.
  bool compile = false;
  std::vector<std::string> runData{};
};

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string joinRepeated(const std::string& item, const std::string& sep, size_t n) {
  std::string out;
  out.reserve((item.size() + sep.size()) * n);
  for (size_t i = 0; i < n; ++i) {
    if (i) out += sep;
    out += item;
  }
  return out;
}

std::string withLineEndings(std::string s, const std::string& eol) {
  std::string out;
  for (char c : s) {
    if (c == '\n') out += eol;
    else out += c;
  }
  return out;
}

std::vector<Case> mutationCases(const Seed& seed, const std::vector<Seed>& allSeeds, size_t count) {
  std::vector<Case> out;
  Rng r(baseSeed() ^ fnv1a(seed.name));
  std::string stem = seed.name;
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  const auto& ms = mutators();
  for (size_t i = 0; i < count; ++i) {
    std::string text = seed.text;
    const MutatorKind& primary = ms[i % ms.size()];
    size_t edits = r.chance(60) ? 1 : r.between(2, 6);
    std::string how;
    for (size_t e = 0; e < edits; ++e) {
      const MutatorKind& m = e == 0 ? primary : r.pick(ms);
      how += (e ? ", " : "") + m.fn(r, text, allSeeds);
    }
    char id[32];
    std::snprintf(id, sizeof id, "%04zu", i);
    out.push_back({"mut-" + stem + "-" + id + "-" + primary.name,
                   "mutation #" + std::to_string(i) + " of " + seed.name + ": " + how, std::move(text), false, true,
                   seed.runData});
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Semantic mutations: edits that keep a model well-formed more often than the ones above, so that
// more mutants pass `pvic check` and reach lowering, AD, LLVM and the fit. Each swaps a token for
// another of its kind (numbers, including extreme ones; operators; distributions and functions of
// the same arity, from compiler/sema/Signatures.cpp), flips a sign, or repeats or drops a
// statement.

// No number much above 100: as a size (vector[1000000] beta) it makes a fit that runs for a
// minute and then fails for lack of memory, which is no crash but too slow for this test.
const std::vector<std::string> kSemanticNumbers = {"0", "1", "2", "3", "-1", "0.5", "1e-300", "1e300", "1e308",
                                                   "-0.0", "100", "0.001"};

const std::vector<std::vector<std::string>> kSwapClasses = {
    {"+", "-", "*", "/", ".*", "./", "^", ".^"},
    {"<", "<=", ">", ">=", "==", "!="},
    {"&&", "||"},
    {"=", "+=", "-=", "*=", "/="},
    {"normal", "lognormal", "cauchy", "logistic", "gamma", "inv_gamma", "beta", "uniform"},
    {"bernoulli", "bernoulli_logit", "poisson", "poisson_log"},
    {"binomial", "binomial_logit"},
    {"multi_normal", "multi_normal_cholesky"},
    {"exp", "log", "log1p", "expm1", "log1m", "lgamma", "digamma", "inv_logit", "log_inv_logit", "log1m_inv_logit",
     "logit", "sqrt", "square", "tanh", "relu", "inv", "abs"},
    {"pow", "fmax", "fmin", "max", "min"},
    {"sum", "mean", "log_sum_exp"},
    {"softmax", "log_softmax"},
    {"lower", "upper"},
    {"rows", "cols", "size"},
};

bool isNumberToken(const std::string& t) {
  return !t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) ||
                        (t[0] == '.' && t.size() > 1 && std::isdigit(static_cast<unsigned char>(t[1]))));
}

bool isIdentToken(const std::string& t) {
  return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
}

// The significant pieces of statement `end` (a ';'): from after the previous ';', '{' or '}'.
size_t statementStart(const std::vector<Piece>& p, const std::vector<size_t>& sig, size_t endSig) {
  size_t k = endSig;
  while (k > 0) {
    const std::string& t = p[sig[k - 1]].text;
    if (t == ";" || t == "{" || t == "}") break;
    --k;
  }
  return k;
}

std::string semanticEdit(Rng& r, std::string& s) {
  return onTokens(s, [&](std::vector<Piece>& p, const std::vector<size_t>& sig) -> std::string {
    for (int attempt = 0; attempt < 20 && !sig.empty(); ++attempt) {
      switch (r.below(10)) {
        case 0:
        case 1:
        case 2: {  // a number for another
          std::vector<size_t> at;
          for (size_t i : sig)
            if (isNumberToken(p[i].text)) at.push_back(i);
          if (at.empty()) continue;
          size_t i = r.pick(at);
          p[i].text = r.pick(kSemanticNumbers);
          return "number#" + std::to_string(i) + "'" + p[i].text + "'";
        }
        case 3:
        case 4:
        case 5:
        case 6: {  // a token for another of its kind
          std::vector<std::pair<size_t, size_t>> at;  // piece, class
          for (size_t i : sig)
            for (size_t c = 0; c < kSwapClasses.size(); ++c)
              if (std::find(kSwapClasses[c].begin(), kSwapClasses[c].end(), p[i].text) != kSwapClasses[c].end())
                at.emplace_back(i, c);
          if (at.empty()) continue;
          auto [i, c] = r.pick(at);
          const std::string old = p[i].text;
          p[i].text = r.pick(kSwapClasses[c]);
          return "swap#" + std::to_string(i) + "'" + old + "'->'" + p[i].text + "'";
        }
        case 7: {  // a sign flipped: '-' before an operand
          std::vector<size_t> at;
          for (size_t k = 1; k < sig.size(); ++k) {
            const std::string& prev = p[sig[k - 1]].text;
            const std::string& t = p[sig[k]].text;
            if ((isIdentToken(t) || isNumberToken(t)) &&
                (prev == "(" || prev == "," || prev == "~" || prev == "=" || prev == "*" || prev == "+" || prev == "|"))
              at.push_back(sig[k]);
          }
          if (at.empty()) continue;
          size_t i = r.pick(at);
          p[i].text = "-" + p[i].text;
          return "negate#" + std::to_string(i);
        }
        default: {  // a statement repeated or dropped
          std::vector<size_t> ends;
          for (size_t k = 0; k < sig.size(); ++k)
            if (p[sig[k]].text == ";") ends.push_back(k);
          if (ends.empty()) continue;
          const size_t endSig = r.pick(ends);
          const size_t first = sig[statementStart(p, sig, endSig)], last = sig[endSig];
          if (r.chance(50)) {
            std::vector<Piece> copy(p.begin() + static_cast<long>(first), p.begin() + static_cast<long>(last) + 1);
            copy.insert(copy.begin(), {"\n", false});
            p.insert(p.begin() + static_cast<long>(last) + 1, copy.begin(), copy.end());
            return "repeat-statement#" + std::to_string(first);
          }
          p.erase(p.begin() + static_cast<long>(first), p.begin() + static_cast<long>(last) + 1);
          return "drop-statement#" + std::to_string(first);
        }
      }
    }
    return "semantic(none)";
  });
}

std::vector<Case> semanticCases(const Seed& seed, size_t count) {
  std::vector<Case> out;
  Rng r(baseSeed() ^ fnv1a("semantic:" + seed.name));
  std::string stem = seed.name;
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  for (size_t i = 0; i < count; ++i) {
    std::string text = seed.text;
    size_t edits = r.chance(60) ? 1 : r.between(2, 3);
    std::string how;
    for (size_t e = 0; e < edits; ++e) how += (e ? ", " : "") + semanticEdit(r, text);
    char id[32];
    std::snprintf(id, sizeof id, "%04zu", i);
    out.push_back({"sem-" + stem + "-" + id,
                   "semantic mutation #" + std::to_string(i) + " of " + seed.name + ": " + how, std::move(text), false,
                   true, seed.runData});
  }
  return out;
}

std::vector<Case> randomCases(size_t perKind) {
  std::vector<Case> out;
  Rng r(baseSeed() ^ fnv1a("random"));
  auto add = [&](const std::string& kind, size_t i, std::string text) {
    char id[32];
    std::snprintf(id, sizeof id, "%04zu", i);
    out.push_back({"rnd-" + kind + "-" + id, kind + " #" + std::to_string(i), std::move(text)});
  };
  for (size_t i = 0; i < perKind; ++i) {  // any bytes: NUL, invalid UTF-8
    std::string s;
    size_t n = r.chance(20) ? r.below(16) : r.below(4096);
    for (size_t k = 0; k < n; ++k) s += static_cast<char>(r.below(256));
    add("bytes", i, std::move(s));
  }
  for (size_t i = 0; i < perKind / 2; ++i) {  // printable ASCII with some newlines
    std::string s;
    size_t n = r.below(4096);
    for (size_t k = 0; k < n; ++k) s += r.chance(3) ? '\n' : static_cast<char>(32 + r.below(95));
    add("printable", i, std::move(s));
  }
  for (size_t i = 0; i < perKind / 2; ++i) {  // valid UTF-8 beyond ASCII: multi-byte, BOM, separators
    static const std::vector<std::string> cps = {"a", " ", "\n", "(", "\xC3\xA9", "\xE2\x88\x91", "\xEF\xBB\xBF",
                                                 "\xE2\x80\xA8", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xC2\x80",
                                                 "\xE0\xA0\x80", "x", "1", ";", "~"};
    std::string s;
    size_t n = r.below(2048);
    for (size_t k = 0; k < n; ++k) s += r.chance(50) ? r.pick(cps) : randomToken(r) + " ";
    add("utf8", i, std::move(s));
  }
  for (size_t i = 0; i < perKind; ++i) {  // token soup, sometimes wrapped in a model block
    std::string s;
    size_t n = r.between(1, 400);
    for (size_t k = 0; k < n; ++k) s += randomToken(r) + (r.chance(10) ? "\n" : " ");
    if (r.chance(50)) s = "data { real a; vector[3] v; int n; }\nmodel {\n" + s + "\n}\n";
    add("tokens", i, std::move(s));
  }
  for (size_t i = 0; i < 2 * perKind; ++i) {  // grammar-shaped programs
    ProgramGenerator g(r);
    add("grammar", i, g.program());
  }
  return out;
}

std::vector<Case> edgeCases() {
  std::vector<Case> c;
  auto add = [&](std::string id, std::string description, std::string text, bool valid = false) {
    c.push_back({"edge-" + id, std::move(description), std::move(text), valid});
  };
  const std::string six = kSixCities;
  const std::string decls = "data { real a; int n; vector[3] v; }\n";
  auto inModel = [&](const std::string& stmts) { return decls + "model {\n" + stmts + "\n}\n"; };
  auto asArg = [&](const std::string& e) { return inModel("  a ~ normal(" + e + ", 1);"); };
  const size_t k10 = 10000, k100 = 100000;

  // Empty and almost empty.
  add("empty", "empty file", "");
  add("whitespace", "whitespace only", " \n\t\r\f\n");
  add("nul", "a single NUL byte", std::string(1, '\0'));
  add("nuls", "4096 NUL bytes", std::string(4096, '\0'));
  add("model-empty", "an empty model block", "model { }", true);
  add("bom", "UTF-8 byte order mark before a valid model", "\xEF\xBB\xBF" + six);
  add("crlf", "valid model with CRLF line endings", withLineEndings(six, "\r\n"), true);
  add("cr", "valid model with CR line endings", withLineEndings(six, "\r"), true);
  add("no-final-newline", "valid model without a final newline", six.substr(0, six.size() - 1), true);

  // NUL and invalid UTF-8 in various places.
  add("nul-in-comment", "NUL inside a line comment", "// \0 x\n" + six);
  add("nul-in-model", "NUL inside the model block", inModel("  a ~ normal(0," + std::string(1, '\0') + " 1);"));
  add("utf8-overlong", "overlong UTF-8 sequence", inModel("  a ~ normal(0, 1); \xC0\xAF"));
  add("utf8-surrogate", "UTF-8 encoded surrogate", inModel("  a ~ normal(0, 1); \xED\xA0\x80"));
  add("utf8-too-big", "UTF-8 beyond U+10FFFF", "\xF4\x90\x80\x80" + six);
  add("utf8-lone-continuation", "lone continuation byte", "\x80");
  add("utf8-truncated-at-eof", "truncated UTF-8 sequence at end of file", six + "\xE2\x82");
  add("utf8-in-ident", "invalid UTF-8 inside an identifier", inModel("  a\xFF ~ normal(0, 1);"));
  add("utf8-in-comment", "invalid UTF-8 inside a comment", "/* \xFE\xFF */\n" + six);
  add("utf8-ident", "non-ASCII identifier", inModel("  \xC3\xA9t\xC3\xA9 ~ normal(0, 1);"));
  add("utf8-emoji-comment", "emoji in a comment", "// \xF0\x9F\x98\x80\n" + six, true);
  add("utf8-line-separator", "U+2028 between tokens", inModel("  a ~\xE2\x80\xA8normal(0, 1);"));
  add("utf8-multibyte-error", "syntax error after multi-byte characters",
      "// \xC3\xA9\xC3\xA9\xC3\xA9\n" + repeat("\xE2\x88\x91", 100) + " model {");

  // Deep nesting (the parser guards at kMaxNesting levels; these go far beyond).
  add("parens-10k", "10,000 nested parentheses", asArg(repeat("(", k10) + "a" + repeat(")", k10)));
  add("parens-10k-unclosed", "10,000 unclosed parentheses", asArg(repeat("(", k10) + "a"));
  add("unary-minus-10k", "10,000 unary minus", asArg(repeat("-", k10) + "a"));
  add("unary-not-10k", "10,000 '!'", asArg(repeat("!", k10) + "a"));
  add("unary-mixed-10k", "10,000 alternating '- +'", asArg(repeat("- +", k10 / 2) + "a"));
  add("braces-10k", "10,000 nested { } blocks", inModel(repeat("{", k10) + repeat("}", k10)));
  add("braces-10k-unclosed", "10,000 unclosed {", inModel(repeat("{", k10)));
  add("if-10k", "10,000 chained 'if (1)'", inModel(repeat("if (1) ", k10) + "a ~ normal(0, 1);"));
  add("else-if-10k", "10,000-long else-if chain",
      inModel(repeat("if (n) a ~ normal(0, 1); else ", k10) + "a ~ normal(0, 1);"));
  add("for-10k", "10,000 nested for loops", inModel(repeat("for (i in 1:n) ", k10) + "a ~ normal(0, 1);"));
  add("brackets-10k", "10,000 nested '['", asArg(repeat("v[", k10) + "1" + repeat("]", k10)));
  add("brackets-10k-unclosed", "10,000 unclosed '['", asArg(repeat("v[", k10) + "1"));
  add("calls-10k", "10,000 nested calls exp(exp(...))", asArg(repeat("exp(", k10) + "a" + repeat(")", k10)));
  add("cond-10k", "10,000 chained '?:'", asArg(repeat("a ? a : ", k10) + "a"));
  add("power-100k", "100,000-term right-associative '^' chain", asArg(joinRepeated("a", " ^ ", k100)));
  add("bound-parens-10k", "10,000 nested parentheses in a bound",
      "data { real<lower=" + repeat("(", k10) + "0" + repeat(")", k10) + "> a; }\nmodel { }\n");
  add("bound-minus-10k", "10,000 unary minus in a bound", "data { real<lower=" + repeat("-", k10) + "0> a; }\nmodel { }\n");

  // Long flat chains: left-recursive rules build one tree level per operator.
  add("add-chain-100k", "100,000-term 'a + a + ...' chain", asArg(joinRepeated("a", " + ", k100)));
  add("mul-chain-100k", "100,000-term 'a * a * ...' chain", asArg(joinRepeated("a", " * ", k100)));
  add("and-chain-100k", "100,000-term 'a && a && ...' chain", asArg(joinRepeated("a", " && ", k100)));
  add("elementwise-chain-100k", "100,000-term 'v .* v .* ...' chain",
      inModel("  v ~ normal(" + joinRepeated("v", " .* ", k100) + ", 1);"));
  add("compare-chain-100k", "100,000-term 'a < a < ...' chain", asArg(joinRepeated("a", " < ", k100)));
  add("transpose-100k", "100,000 postfix transposes", asArg("v" + repeat("'", k100)));
  add("index-chain-100k", "100,000 chained indexes v[1][1]...", asArg("v" + repeat("[1]", k100)));
  add("bound-chain-100k", "100,000-term chain in a bound",
      "data { int n; int<lower=" + joinRepeated("n", " + ", k100) + "> m; }\nmodel { }\n");
  add("size-chain-100k", "100,000-term chain in a vector size",
      "data { int n; vector[" + joinRepeated("n", " + ", k100) + "] w; }\nmodel { }\n");
  add("call-args-100k", "a call with 100,000 arguments", asArg("fmax(" + joinRepeated("a", ", ", k100) + ")"));
  add("tilde-args-100k", "a '~' with 100,000 arguments", inModel("  a ~ normal(" + joinRepeated("a", ", ", k100) + ");"));
  add("statements-50k", "50,000 statements in the model block", inModel(repeat("  a ~ normal(0, 1);\n", k100 / 2)),
      true);
  add("blocks-100k", "100,000 model blocks", repeat("model { }\n", k100));
  add("annotations-100k", "100,000 annotations", repeat("@partition(s)\n", k100) + "model { }\n");
  add("partitions-100k", "one @partition with 100,000 names",
      "@partition(" + joinRepeated("p", ", ", k100) + ")\nmodel { }\n");
  add("decls-10k", "10,000 declarations, then misspelled uses", [&] {
    std::string s = "data {\n";
    for (size_t i = 0; i < k10; ++i) s += "  real variable" + std::to_string(i) + ";\n";
    s += "}\nmodel {\n";
    for (size_t i = 0; i < 200; ++i) s += "  varable" + std::to_string(i * 37) + " ~ normal(0, 1);\n";
    return s + "}\n";
  }());
  add("suggestions-20k-names", "20,000 declared 40-character names, then 100 misspelled uses", [&] {
    Rng r(baseSeed() ^ fnv1a("suggestions"));
    std::vector<std::string> names;
    std::string s = "data {\n";
    for (size_t i = 0; i < 20000; ++i) {
      std::string n;
      for (size_t k = 0; k < 40; ++k) n += static_cast<char>('a' + r.below(10));
      s += "  real " + n + ";\n";
      names.push_back(std::move(n));
    }
    s += "}\nmodel {\n";
    for (size_t i = 0; i < 100; ++i) s += "  " + names[i].substr(0, 39) + "z ~ normal(0, 1);\n";
    return s + "}\n";
  }());
  add("errors-100k", "100,000 syntax errors on one line", "model { " + repeat("$ ", k100) + "}\n");
  add("errors-100k-lines", "100,000 syntax errors on separate lines", "model {\n" + repeat("$\n", k100) + "}\n");
  add("lines-400k", "400,000 empty lines around a valid model", repeat("\n", 400000) + six + repeat("\n", 400000),
      true);

  // Comments.
  add("comment-open-only", "just '/*'", "/*");
  add("comment-unterminated-end", "'/*' at the end of a valid model", six + "/*");
  add("comment-unterminated-start", "'/*' at the start of a valid model", "/*\n" + six);
  add("comment-unterminated-star", "'/**' at end of file", six + "/**");
  add("comment-slash-star-slash", "'/*/' never closed", "/*/ model { }");
  add("comment-nested", "nested block comments", "/* /* */ */\n" + six);
  add("comment-close-only", "stray '*/'", "*/\n" + six);
  add("comment-in-model", "unterminated comment inside the model block", inModel("  a ~ normal(0, 1); /* a ~"));
  // Long tokens and lines stay under the 1 MiB file limit of compiler/driver/main.cpp (two of
  // them must fit in one file), so they reach the lexer and the checker.
  constexpr size_t kLong = 400u << 10;
  add("comment-400kb-unterminated", "400 KB unterminated comment", "model { } /*" + std::string(kLong, 'x'));
  add("comment-line-at-eof", "line comment at end of file without newline", six + "// end", true);
  add("comment-400kb-line", "400 KB line comment", "// " + std::string(kLong, 'x') + "\n" + six, true);
  add("comment-many", "100,000 block comments", repeat("/**/", k100) + six, true);

  // Long identifiers and literals.
  const std::string longName(kLong, 'a');
  add("ident-400kb-declared", "400 KB identifier, declared and used",
      "data { real " + longName + "; }\nmodel { " + longName + " ~ normal(0, 1); }\n", true);
  add("ident-400kb-undeclared", "400 KB undeclared identifier", inModel("  " + longName + " ~ normal(0, 1);"));
  add("ident-100kb-undeclared-x100", "100 uses of an undeclared 100 KB identifier",
      inModel(repeat("  " + std::string(100 << 10, 'u') + " ~ normal(0, 1);\n", 100)));
  add("ident-400kb-distribution", "400 KB distribution name", inModel("  a ~ " + longName + "(0, 1);"));
  add("ident-400kb-similar", "two 400 KB identifiers that differ in the last character",
      "data { real " + longName + "b; }\nmodel { " + longName + "c ~ normal(0, 1); }\n");
  add("int-400-digits", "400-digit integer literal", asArg(std::string(400, '9')));
  add("int-400kb-digits", "400 KB integer literal", asArg(std::string(kLong, '7')));
  add("int-max", "largest int64", asArg("9223372036854775807"), true);
  add("int-max-plus-1", "largest int64 + 1", asArg("9223372036854775808"));
  add("int-leading-zeros", "400 KB of leading zeros", asArg(std::string(kLong, '0') + "1"), true);
  add("real-400-digits", "400-digit real literal", asArg(std::string(400, '9') + ".5"));
  add("real-huge-exponent", "real literal with a 400 KB exponent", asArg("1e" + std::string(kLong, '9')));
  add("real-tiny", "real literal that underflows", asArg("1e-99999"), true);
  add("real-400kb-fraction", "0.000...1 with 400 KB of zeros", asArg("0." + std::string(kLong, '0') + "1"), true);
  add("real-overflow", "1e309", asArg("1e309"));
  add("size-huge", "vector size beyond int64", "data { vector[99999999999999999999] w; }\nmodel { }\n");
  add("size-negative", "negative vector size", "data { vector[-9223372036854775807 - 1] w; }\nmodel { }\n");
  add("line-400kb-spaces", "a 400 KB line of spaces before an error", std::string(kLong, ' ') + "model { $ }");
  add("line-400kb-tabs", "a 400 KB line of tabs before an error", std::string(kLong, '\t') + "model { $ }");

  // Big inputs. pvic may refuse files over a size limit (exit 1 with a diagnostic); the 10 MB
  // inputs are beyond it, the others just below the 1 MiB limit of compiler/driver/main.cpp.
  auto validModel = [&](size_t bytes) {
    std::string big = six.substr(0, six.find("model {"));
    std::string body = six.substr(six.find("model {") + 8);
    body = body.substr(0, body.rfind('}'));
    big += "model {\n";
    while (big.size() + body.size() + 2 <= bytes) big += body;
    return big + "}\n";
  };
  add("valid-10mb", "valid 10 MB model: the Six Cities model block repeated", validModel(10u << 20));
  add("valid-1mib", "valid model just under 1 MiB: the Six Cities model block repeated", validModel((1u << 20) - 1));
  {
    Rng r(baseSeed() ^ fnv1a("garbage"));
    std::string g(10u << 20, ' ');
    for (char& ch : g) ch = static_cast<char>(32 + r.below(95));
    std::string lines = g;
    for (size_t i = 80; i < lines.size(); i += 81) lines[i] = '\n';
    add("garbage-1mib", "just under 1 MiB of random printable ASCII (one line)", g.substr(0, (1u << 20) - 1));
    add("garbage-10mb", "10 MB of random printable ASCII (one line)", std::move(g));
    add("garbage-10mb-lines", "10 MB of random printable ASCII in 80-column lines", std::move(lines));
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Running pvic

struct RunResult {
  bool timedOut = false;
  bool exited = false;
  int exitCode = -1;
  int signal = 0;
  double seconds = 0;     // wall time
  double cpuSeconds = 0;  // user + system time of the child
  long maxRssKb = 0;
  uintmax_t outBytes = 0;
  uintmax_t errBytes = 0;
  std::string errHead;  // the first bytes of stderr
  std::string spawnError;
  double limit = kWallLimitSeconds;  // the wall-time limit it ran under
};

std::string readHead(const fs::path& p, size_t n) {
  std::ifstream in(p, std::ios::binary);
  std::string s(n, '\0');
  in.read(s.data(), static_cast<std::streamsize>(n));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

uint64_t addressSpaceLimitMb() {
  if (const char* s = std::getenv("PVI_ROBUSTNESS_AS_LIMIT_MB")) return std::strtoull(s, nullptr, 0);
  return kDefaultAddressSpaceMb;
}

// Runs pvic with `args` (argv[1] on) under the limits, stdout and stderr to the files, killed after
// `limit` seconds of wall time.
RunResult runPvic(std::vector<std::string> args, const fs::path& outFile, const fs::path& errFile, double limit) {
  RunResult r;
  r.limit = limit;
  // Everything the child needs is prepared before fork(): other threads may hold locks.
  args.insert(args.begin(), PVIC_PATH);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int outFd = ::open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int errFd = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int nullFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (outFd < 0 || errFd < 0 || nullFd < 0) {
    r.spawnError = std::string("cannot open output files: ") + std::strerror(errno);
    for (int fd : {outFd, errFd, nullFd})
      if (fd >= 0) ::close(fd);
    return r;
  }
  uint64_t asMb = addressSpaceLimitMb();
  rlimit as{static_cast<rlim_t>(asMb) << 20, static_cast<rlim_t>(asMb) << 20};
  rlimit core{0, 0};
  rlimit fsize{kOutputFileLimit, kOutputFileLimit};

  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    r.spawnError = std::string("fork failed: ") + std::strerror(errno);
    ::close(outFd);
    ::close(errFd);
    ::close(nullFd);
    return r;
  }
  if (pid == 0) {
    // Child: async-signal-safe calls only.
    ::dup2(nullFd, 0);
    ::dup2(outFd, 1);
    ::dup2(errFd, 2);
    if (asMb != 0) ::setrlimit(RLIMIT_AS, &as);
    ::setrlimit(RLIMIT_CORE, &core);
    ::setrlimit(RLIMIT_FSIZE, &fsize);
    ::execv(argv[0], argv.data());
    // Say why on stderr (write() is async-signal-safe; snprintf is not).
    int e = errno;
    char msg[64] = "robustness test: execv failed, errno ";
    size_t n = std::strlen(msg);
    char digits[12];
    size_t k = 0;
    do digits[k++] = static_cast<char>('0' + e % 10); while ((e /= 10) > 0 && k < sizeof digits);
    while (k > 0 && n + 2 < sizeof msg) msg[n++] = digits[--k];
    msg[n++] = '\n';
    ssize_t ignored = ::write(2, msg, n);
    (void)ignored;
    _exit(127);
  }
  ::close(outFd);
  ::close(errFd);
  ::close(nullFd);

  // Wait for the child, at most until the deadline. A pidfd (Linux 5.3+) wakes us the moment the
  // child exits; without one, poll wait4 with short sleeps.
  int status = 0;
  rusage usage{};
  auto deadline = start + std::chrono::duration<double>(limit);
#ifdef SYS_pidfd_open
  int pidFd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  int pidFd = -1;
#endif
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    pid_t got = ::wait4(pid, &status, WNOHANG, &usage);
    if (got == pid) break;
    if (got < 0 && errno != EINTR) {
      r.spawnError = std::string("wait4 failed: ") + std::strerror(errno);
      if (pidFd >= 0) ::close(pidFd);
      return r;
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      ::kill(pid, SIGKILL);
      while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
      }
      r.timedOut = true;
      break;
    }
    if (pidFd >= 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
      pollfd pfd{pidFd, POLLIN, 0};
      ::poll(&pfd, 1, static_cast<int>(left));
    } else {
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
  }
  if (pidFd >= 0) ::close(pidFd);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.maxRssKb = usage.ru_maxrss;
  r.cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  if (WIFEXITED(status)) {
    r.exited = true;
    r.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  std::error_code ec;
  r.outBytes = fs::file_size(outFile, ec);
  r.errBytes = fs::file_size(errFile, ec);
  r.errHead = readHead(errFile, 64 << 10);
  return r;
}

RunResult runCheck(const fs::path& input, const fs::path& outFile, const fs::path& errFile) {
  return runPvic({"check", "--color=never", input.string()}, outFile, errFile, kWallLimitSeconds);
}

// Printable rendering of (part of) a diagnostic for a failure message.
std::string printable(const std::string& s, size_t max = 600) {
  std::string out;
  for (size_t i = 0; i < s.size() && out.size() < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n' || (c >= 32 && c < 127)) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

// Empty when the run is acceptable, else why not.
// Why the process did not end by itself with an exit code of pvic's ("" if it did).
std::string abnormalEnd(const RunResult& r) {
  std::ostringstream why;
  if (!r.spawnError.empty()) return r.spawnError;
  if (r.timedOut) {
    why << "timed out: still running after " << r.limit << " s (killed)";
  } else if (!r.exited) {
    why << "killed by signal " << r.signal << " (" << strsignal(r.signal) << ")";
    if (r.signal == SIGXFSZ) why << ": wrote more than " << (kOutputFileLimit >> 20) << " MiB of output";
    if (r.signal == SIGABRT) why << ": an uncaught exception (e.g. std::bad_alloc under RLIMIT_AS) or assertion";
  } else if (r.exitCode == 127) {
    why << "exit code 127: could not execute " << PVIC_PATH << " (was it being rebuilt?)";
  }
  return why.str();
}

// Why the run went over a limit of time, memory or output ("" if it did not).
std::string overLimits(const RunResult& r) {
  std::ostringstream why;
  if (r.seconds > r.limit) why << "took " << r.seconds << " s (limit " << r.limit << " s)";
  else if (r.maxRssKb > kMaxRssKb)
    why << "peak RSS " << r.maxRssKb / 1024 << " MiB (limit " << kMaxRssKb / 1024 << " MiB)";
  else if (r.errBytes > kMaxOutputBytes || r.outBytes > kMaxOutputBytes)
    why << "output blow-up: " << r.errBytes << " bytes on stderr, " << r.outBytes << " bytes on stdout (limit "
        << kMaxOutputBytes << ")";
  return why.str();
}

std::string judge(const Case& c, const RunResult& r, const fs::path& input) {
  std::ostringstream why;
  if (std::string abnormal = abnormalEnd(r); !abnormal.empty()) {
    why << abnormal;
  } else if (r.exitCode == 2) {
    why << "exit code 2 (usage or I/O error) for a readable file";
  } else if (r.exitCode != 0 && r.exitCode != 1) {
    why << "unexpected exit code " << r.exitCode;
  } else if (c.expectValid && r.exitCode != 0) {
    why << "exit code " << r.exitCode << " for a valid model";
  } else if (r.exitCode == 1 && r.errBytes == 0) {
    why << "exit code 1 with an empty stderr";
  } else if (r.exitCode == 1 && r.errHead.find(input.string()) == std::string::npos) {
    why << "exit code 1 but the diagnostics do not name the file " << input;
  }
  if (!why.str().empty()) return why.str();
  return overLimits(r);
}

// The meaning of pvic's exit codes (docs/cli.md).
const char* exitMeaning(int code) {
  switch (code) {
    case 0: return "success";
    case 1: return "invalid model, data or options";
    case 2: return "bad command line or unreadable input";
    case 3: return "the fit failed";
    case 4: return "an output could not be written";
    default: return "not a documented exit code";
  }
}

// Empty when a later stage (--dump-llvm, run) of an accepted mutant ended acceptably, else why
// not: no signal or time-out, an exit code among `allowed`, a message on stderr unless it is 0,
// within the limits of memory and output.
std::string judgeStage(const RunResult& r, const std::vector<int>& allowed) {
  std::ostringstream why;
  if (std::string abnormal = abnormalEnd(r); !abnormal.empty()) {
    why << abnormal;
  } else if (std::find(allowed.begin(), allowed.end(), r.exitCode) == allowed.end()) {
    why << "exit code " << r.exitCode << " (" << exitMeaning(r.exitCode) << "); expected one of";
    for (int a : allowed) why << ' ' << a;
  } else if (r.exitCode != 0 && r.errBytes == 0) {
    why << "exit code " << r.exitCode << " (" << exitMeaning(r.exitCode) << ") with an empty stderr";
  }
  if (!why.str().empty()) return why.str();
  return overLimits(r);
}

std::string shellQuote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string commandLine(const std::vector<std::string>& args) {
  std::string out = shellQuote(PVIC_PATH);
  for (const std::string& a : args) out += " " + shellQuote(a);
  return out;
}

// Exit codes seen by the later stages of accepted mutants.
struct PipelineCounts {
  size_t accepted = 0;           // mutants that `pvic check` accepted (those with compile set)
  size_t dumps = 0, runs = 0;    // processes started
  std::array<size_t, 5> dump{};  // by exit code, of those that ended with one of pvic's
  std::array<size_t, 5> run{};
  double dumpSeconds = 0, runSeconds = 0;  // the slowest
};

struct StageFailure {
  std::string stage;    // "--dump-llvm" or "run"
  std::string command;  // reproduces it
  std::string why;
  RunResult run;
};

// --dump-llvm, then a short run when the case has data, of a model that `pvic check` accepted.
// The run's output files go to their own directory under `work`, removed when all went well.
// Counts into `counts` unless it is null (a run repeated alone).
std::optional<StageFailure> runPipeline(const Case& c, const fs::path& input, const fs::path& work,
                                        PipelineCounts* counts, std::mutex& mu, bool keep) {
  std::error_code ec;
  const fs::path out = work / (c.id + ".dump.stdout"), err = work / (c.id + ".dump.stderr");
  const std::vector<std::string> dumpArgs = {"--dump-llvm", input.string()};
  auto tally = [&](const RunResult& r, size_t& started, std::array<size_t, 5>& byCode, double& slowest) {
    if (!counts) return;
    std::lock_guard<std::mutex> lock(mu);
    ++started;
    if (r.exited && r.exitCode >= 0 && r.exitCode < 5) ++byCode[static_cast<size_t>(r.exitCode)];
    slowest = std::max(slowest, r.seconds);
  };
  RunResult dump = runPvic(dumpArgs, out, err, kDumpWallLimitSeconds);
  if (counts) tally(dump, counts->dumps, counts->dump, counts->dumpSeconds);
  if (std::string why = judgeStage(dump, {0, 1}); !why.empty())
    return StageFailure{"--dump-llvm", commandLine(dumpArgs), why, dump};
  fs::remove(out, ec);
  fs::remove(err, ec);
  if (c.runData.empty()) return std::nullopt;

  const fs::path runDir = work / (c.id + ".run");
  fs::create_directories(runDir, ec);
  std::vector<std::string> runArgs = {"run", input.string()};
  runArgs.insert(runArgs.end(), c.runData.begin(), c.runData.end());
  // One round, a few Adam steps (PVI) or iterations (SFVI) of few draws, one thread, few draws written: a short run that
  // still binds the data, compiles with the JIT, fits, estimates the ELBO and writes every output.
  runArgs.insert(runArgs.end(), {"--rounds", "1", "--local-steps", "5", "--iterations-per-round", "5", "--samples",
                                 "2", "--elbo-samples", "4",
                                 "--threads", "1", "--draws", "10", "--progress", "never", "-o",
                                 (runDir / "fit.csv").string()});
  RunResult run = runPvic(runArgs, runDir / "stdout", runDir / "stderr", kRunWallLimitSeconds);
  if (counts) tally(run, counts->runs, counts->run, counts->runSeconds);
  if (std::string why = judgeStage(run, {0, 1, 3}); !why.empty())
    return StageFailure{"run", commandLine(runArgs), why, run};
  if (!keep) fs::remove_all(runDir, ec);
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Running a batch of cases in parallel

struct Record {
  std::string id;
  double seconds;
  long maxRssKb;
};

struct Failure {
  size_t index;
  const Case* c;
  fs::path input;
  std::string why;
  RunResult run;
  std::string stage = "check";  // which run failed
  std::string command{};        // how to reproduce it (empty: pvic check on the input)
};

class WorkDir {
 public:
  WorkDir() {
    if (const char* d = std::getenv("PVI_ROBUSTNESS_DIR")) {
      path_ = d;
      fs::create_directories(path_);
      return;
    }
    std::string tmpl = (fs::temp_directory_path() / "pvi-robustness-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
    owned_ = true;
  }
  ~WorkDir() {
    std::error_code ec;
    if (owned_ && !keep_) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  fs::path path_;
  bool owned_ = false;
  bool keep_ = false;
};

bool keepAll() {
  const char* k = std::getenv("PVI_ROBUSTNESS_KEEP");
  return k != nullptr && std::string(k) == "1";
}

size_t jobs() {
  if (const char* j = std::getenv("PVI_ROBUSTNESS_JOBS")) return std::max<size_t>(1, std::strtoull(j, nullptr, 0));
  return 2;
}

void writeFile(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

// Runs every case; the later stages of accepted mutants are counted into `pipeline` if given.
void runAll(const std::string& label, const std::vector<Case>& cases, PipelineCounts* pipeline = nullptr) {
  ASSERT_TRUE(fs::exists(PVIC_PATH)) << "pvic not found at " << PVIC_PATH;
  PipelineCounts counts;
  WorkDir dir;
  std::vector<Record> records(cases.size());
  std::vector<Failure> failures;
  std::mutex mu;
  std::atomic<size_t> nextCase{0};
  const bool keep = keepAll();
  auto started = std::chrono::steady_clock::now();

  // Runs case i (`pvic check`, then the later stages of an accepted mutant); returns the failure,
  // if any. `count`: count the later stages (not when repeating a case).
  auto runOne = [&](size_t i, bool count) -> std::optional<Failure> {
    const Case& c = cases[i];
    fs::path input = dir.path() / (c.id + ".pvi");
    fs::path out = dir.path() / (c.id + ".stdout");
    fs::path err = dir.path() / (c.id + ".stderr");
    if (!fs::exists(input)) writeFile(input, c.text);
    RunResult r = runCheck(input, out, err);
    std::string why = judge(c, r, input);
    records[i] = {c.id, r.seconds, r.maxRssKb};
    std::error_code ec;
    if (!why.empty()) return Failure{i, &c, input, why, r};
    fs::remove(out, ec);
    fs::remove(err, ec);
    if (c.compile && r.exitCode == 0) {
      if (count) {
        std::lock_guard<std::mutex> lock(mu);
        ++counts.accepted;
      }
      if (auto f = runPipeline(c, input, dir.path(), count ? &counts : nullptr, mu, keep))
        return Failure{i, &c, input, f->why, f->run, f->stage, f->command};
    }
    if (!keep) fs::remove(input, ec);
    return std::nullopt;
  };
  auto worker = [&] {
    for (size_t i = nextCase++; i < cases.size(); i = nextCase++) {
      if (auto f = runOne(i, true)) {
        std::lock_guard<std::mutex> lock(mu);
        failures.push_back(std::move(*f));
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t j = 0; j < std::min(jobs(), cases.size()); ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();

  // Wall time depends on the load of the machine. A run that went over the time limit is run
  // once more, alone; only if it is too slow again does it count.
  std::vector<Failure> confirmed;
  for (Failure& f : failures) {
    if (!f.run.timedOut && f.run.seconds <= f.run.limit) {
      confirmed.push_back(std::move(f));
      continue;
    }
    std::cout << "[robustness] " << f.c->id << " (" << f.stage << ") took " << f.run.seconds << " s wall ("
              << f.run.cpuSeconds << " s CPU" << (f.run.timedOut ? ", killed" : "") << "); running it again alone\n"
              << std::flush;
    if (auto again = runOne(f.index, false)) confirmed.push_back(std::move(*again));
  }
  failures.clear();
  std::vector<Failure> known;
  for (Failure& f : confirmed) {
    const bool isKnown = baseSeed() == kSeed &&
                         std::find(kKnownFailures.begin(), kKnownFailures.end(), f.c->id) != kKnownFailures.end();
    (isKnown ? known : failures).push_back(std::move(f));
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // Summary: the slowest and the largest runs.
  std::vector<Record> bySeconds = records, byRss = records;
  std::sort(bySeconds.begin(), bySeconds.end(), [](const Record& a, const Record& b) { return a.seconds > b.seconds; });
  std::sort(byRss.begin(), byRss.end(), [](const Record& a, const Record& b) { return a.maxRssKb > b.maxRssKb; });
  std::ostringstream summary;
  summary << std::fixed << std::setprecision(3);
  summary << "[robustness] " << label << ": " << cases.size() << " inputs in " << total << " s with " << jobs()
          << " workers, seed 0x" << std::hex << baseSeed() << std::dec << ", " << failures.size() << " failing\n";
  if (!records.empty()) {
    summary << "[robustness]   slowest:";
    for (size_t i = 0; i < std::min<size_t>(3, bySeconds.size()); ++i)
      summary << ' ' << bySeconds[i].id << " (" << bySeconds[i].seconds << " s)";
    summary << "\n[robustness]   largest:";
    for (size_t i = 0; i < std::min<size_t>(3, byRss.size()); ++i)
      summary << ' ' << byRss[i].id << " (" << byRss[i].maxRssKb / 1024 << " MiB)";
    summary << '\n';
  }
  if (counts.accepted > 0) {
    auto byCode = [](const std::array<size_t, 5>& n) {
      std::string s;
      for (size_t k = 0; k < n.size(); ++k)
        if (n[k] > 0) s += (s.empty() ? "" : ", ") + std::to_string(n[k]) + " exit " + std::to_string(k);
      return s.empty() ? std::string("none") : s;
    };
    summary << "[robustness]   accepted by check: " << counts.accepted << "; --dump-llvm: " << counts.dumps << " ("
            << byCode(counts.dump) << "; slowest " << counts.dumpSeconds << " s); run on the seed's data: "
            << counts.runs << " (" << byCode(counts.run) << "; slowest " << counts.runSeconds << " s)\n";
  }
  for (const Failure& f : known)
    summary << "[robustness]   known failure (kKnownFailures), not counted: " << f.c->id << " (" << f.stage
            << "): " << f.why << "\n";
  if (pipeline) *pipeline = counts;
  std::cout << summary.str() << std::flush;
  ::testing::Test::RecordProperty("inputs", static_cast<int>(cases.size()));
  ::testing::Test::RecordProperty("max_seconds_x1000", records.empty() ? 0 : static_cast<int>(bySeconds[0].seconds * 1000));
  ::testing::Test::RecordProperty("max_rss_kb", records.empty() ? 0 : static_cast<int>(byRss[0].maxRssKb));

  if (failures.empty()) return;
  dir.keep();
  std::sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) { return a.c->id < b.c->id; });
  for (size_t i = 0; i < failures.size() && i < kMaxReportedFailures; ++i) {
    const Failure& f = failures[i];
    ADD_FAILURE() << f.why << "\n  input:     " << f.c->description << " (" << f.c->text.size() << " bytes)"
                  << "\n  stage:     " << f.stage << "\n  kept at:   " << f.input << "\n  reproduce: "
                  << (f.command.empty() ? commandLine({"check", f.input.string()}) : f.command)
                  << "\n  seed:      0x" << std::hex << baseSeed() << std::dec << "\n  run:       " << std::fixed
                  << std::setprecision(3) << f.run.seconds << " s wall, " << f.run.cpuSeconds << " s CPU, peak RSS "
                  << f.run.maxRssKb / 1024 << " MiB"
                  << (f.run.timedOut ? " when killed" : "") << ", stderr " << f.run.errBytes
                  << " bytes\n  stderr:    " << printable(f.run.errHead);
  }
  if (failures.size() > kMaxReportedFailures) {
    ADD_FAILURE() << (failures.size() - kMaxReportedFailures) << " more failing inputs; all are kept in "
                  << dir.path();
  }
}

// ---------------------------------------------------------------------------------------------
// Tests

TEST(PvicRobustness, BuiltinSeedsAreValid) {
  std::vector<Case> cases;
  for (const Seed& s : builtinSeeds()) cases.push_back({"seed-" + s.name, "built-in seed " + s.name, s.text, true});
  // Valid in the language, refused by code generation (two partition kinds): exit 1, not a crash.
  cases.push_back({"seed-tour2", "the grammar tour with two partition kinds", kGrammarTour, false});
  for (const Seed& s : exampleSeeds()) {
    std::string id = s.name;
    for (char& ch : id)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    cases.push_back({"seed-" + id, "seed " + s.name, s.text, false});  // examples need only end in 0 or 1
  }
  runAll("seeds", cases);
}

TEST(PvicRobustness, EdgeCases) {
  std::vector<Case> cases = edgeCases();
  runAll("edge cases", cases);
}

TEST(PvicRobustness, MutatedSeeds) {
  std::vector<Seed> seeds = builtinSeeds();
  std::vector<Seed> examples = exampleSeeds();
  std::vector<Seed> all = seeds;
  all.insert(all.end(), examples.begin(), examples.end());
  std::vector<Case> cases;
  for (const Seed& s : seeds) {
    // Splices draw only from the built-in seeds, so these cases never depend on examples/.
    auto m = mutationCases(s, seeds, kMutationsPerBuiltinSeed * scale());
    cases.insert(cases.end(), std::make_move_iterator(m.begin()), std::make_move_iterator(m.end()));
  }
  for (const Seed& s : examples) {
    auto m = mutationCases(s, all, kMutationsPerExampleSeed * scale());
    cases.insert(cases.end(), std::make_move_iterator(m.begin()), std::make_move_iterator(m.end()));
  }
  // With RandomInputs, over 1,000 generated inputs even when examples/ has no models.
  ASSERT_GE(cases.size(), 2 * kMutationsPerBuiltinSeed);
  PipelineCounts pipeline;
  runAll("mutated seeds (" + std::to_string(examples.size()) + " example models found)", cases, &pipeline);
  // The accepted mutants (61 with the default seed) reached --dump-llvm.
  EXPECT_EQ(pipeline.dumps, pipeline.accepted) << "accepted mutants that did not reach --dump-llvm";
  EXPECT_GE(pipeline.accepted, 20u);
}

// Semantic mutants (kSemanticMutantsPerExample each, and the unmutated seed) of every example with
// data and of the single-partition grammar tour: all go through `pvic check`; those it accepts
// through --dump-llvm and, for the examples, a short run on the example's data.
TEST(PvicRobustness, SemanticMutantsLowerAndRun) {
  std::vector<Seed> seeds;
  for (Seed& s : exampleSeeds())
    if (!s.runData.empty()) seeds.push_back(std::move(s));
  const size_t examples = seeds.size();
  ASSERT_GT(examples, 0u) << "no example with data under " << PVI_SOURCE_DIR << "/examples";
  seeds.push_back(singlePartitionTour());
  std::vector<Case> cases;
  size_t withData = 0;
  for (const Seed& s : seeds) {
    std::string id = s.name;
    for (char& ch : id)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    cases.push_back({"seed-" + id, "seed " + s.name, s.text, true, true, s.runData});
    auto m = semanticCases(s, kSemanticMutantsPerExample * scale());
    cases.insert(cases.end(), std::make_move_iterator(m.begin()), std::make_move_iterator(m.end()));
    if (!s.runData.empty()) withData += 1 + m.size();
  }
  PipelineCounts pipeline;
  runAll("semantic mutants of " + std::to_string(examples) + " examples and the grammar tour", cases, &pipeline);
  EXPECT_EQ(pipeline.dumps, pipeline.accepted) << "accepted mutants that did not reach --dump-llvm";
  // The point of these mutants is to get past the checker to the later stages: at least a
  // quarter of them must (about 45 % do with the default seed).
  EXPECT_GE(4 * pipeline.accepted, cases.size()) << "too few semantic mutants pass pvic check";
  EXPECT_GE(4 * pipeline.runs, withData) << "too few semantic mutants reach pvic run";
}

TEST(PvicRobustness, RandomInputs) {
  std::vector<Case> cases = randomCases(kRandomInputsPerKind * scale());
  runAll("random inputs", cases);
}

}  // namespace
