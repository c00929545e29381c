//===- job.cpp - Parsing the job file -------------------------------------===//

#include "job.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace pld::sim {
namespace {

struct DTypeInfo {
  int64_t bytes;
  bool is_float;
};

const std::map<std::string, DTypeInfo> &dtypes() {
  static const std::map<std::string, DTypeInfo> table = {
      {"i1", {1, false}},  {"i8", {1, false}},  {"i16", {2, false}},
      {"i32", {4, false}}, {"i64", {8, false}}, {"index", {8, false}},
      {"f16", {2, true}},  {"bf16", {2, true}}, {"f32", {4, true}},
      {"f64", {8, true}}};
  return table;
}

bool parse_int(const std::string &text, int64_t &value) {
  if (text.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0')
    return false;
  value = parsed;
  return true;
}

bool parse_dims(const std::string &text, std::vector<int64_t> &dims) {
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, 'x')) {
    int64_t d;
    if (!parse_int(part, d) || d < 0)
      return false;
    dims.push_back(d);
  }
  return !dims.empty() && dims.size() <= 8 && text.back() != 'x';
}

/// Parses one directive's words; returns an error message or "".
std::string directive(const std::vector<std::string> &words, Job &job,
                      std::map<int64_t, JobArg> &args, bool &has_entry) {
  const std::string &key = words[0];
  auto want = [&](size_t n) { return words.size() == n; };
  int64_t value = 0;
  if (key == "ranks") {
    if (!want(2) || !parse_int(words[1], value) || value < 1 || value > 64)
      return "`ranks` takes a count in [1, 64]";
    job.ranks = static_cast<int32_t>(value);
  } else if (key == "blocks") {
    if (!want(2) || !parse_int(words[1], value) || value < 1 || value > 4096)
      return "`blocks` takes a count in [1, 4096]";
    job.blocks = value;
  } else if (key == "launches") {
    if (!want(2) || !parse_int(words[1], value) || value < 1 || value > 1000)
      return "`launches` takes a count in [1, 1000]";
    job.launches = static_cast<int32_t>(value);
  } else if (key == "windows") {
    if (!want(2) || (words[1] != "reset" && words[1] != "keep"))
      return "`windows` is `reset` or `keep`";
    job.reset_windows = words[1] == "reset";
  } else if (key == "entry") {
    if (!want(2) || (words[1] != "host" && words[1] != "kernel"))
      return "`entry` is `host` or `kernel`";
    job.host_entry = words[1] == "host";
    has_entry = true;
  } else if (key == "timeout") {
    char *end = nullptr;
    if (want(2))
      job.timeout_s = std::strtod(words[1].c_str(), &end);
    if (!want(2) || *end != '\0' || !(job.timeout_s > 0))
      return "`timeout` takes a positive number of seconds";
  } else if (key == "schedule") {
    if (words.size() < 2)
      return "`schedule` takes `replay CHOICES`, `pct SEED DEPTH` or `time`";
    job.schedule = words;
  } else if (key == "timing") {
    job.timing.assign(words.begin() + 1, words.end());
    if (job.timing.empty())
      return "`timing` takes the model's KEY=VALUE parameters";
  } else if (key == "values") {
    if (!want(2) || (words[1] != "skip" && words[1] != "compute"))
      return "`values` is `skip` or `compute`";
    job.skip_values = words[1] == "skip";
  } else if (key == "events") {
    if (!want(2))
      return "`events` takes one path";
    job.events = words[1];
  } else if (key == "trace") {
    if (!want(2))
      return "`trace` takes one path";
    job.trace = words[1];
  } else if (key == "race") {
    if (!want(2) || (words[1] != "on" && words[1] != "off"))
      return "`race` is `on` or `off`";
    job.race = words[1] == "on";
  } else if (key == "mpi") {
    if (!want(2) || (words[1] != "node" && words[1] != "rma"))
      return "`mpi` is `node` or `rma`";
    job.mpi_rma = words[1] == "rma";
  } else if (key == "window_heap") {
    if (!want(2) || !parse_int(words[1], value) || value < 0)
      return "`window_heap` takes a byte count";
    job.window_heap = static_cast<uint64_t>(value);
  } else if (key == "stats" || key == "input" || key == "output") {
    if (!want(2))
      return "`" + key + "` takes one path";
    (key == "stats"   ? job.stats
     : key == "input" ? job.input
                      : job.output) = words[1];
  } else if (key == "arg") {
    // An optional last word `name=NAME`: the source's name for it.
    std::string name;
    if (words.size() > 4 && words.back().rfind("name=", 0) == 0) {
      name = words.back().substr(5);
      if (name.empty())
        return "`name=` takes the argument's name";
      std::vector<std::string> rest(words.begin(), words.end() - 1);
      std::string message = directive(rest, job, args, has_entry);
      if (message.empty() && parse_int(rest[1], value))
        args[value].name = name;
      return message;
    }
    if (words.size() < 4 || !parse_int(words[1], value) || value < 0)
      return "`arg` takes an index, a kind, a dtype and (but for scalars) "
             "dims";
    if (args.count(value))
      return "argument " + words[1] + " is given twice";
    auto info = dtypes().find(words[3]);
    if (info == dtypes().end())
      return "unknown dtype `" + words[3] + "`";
    JobArg arg{ArgKind::Scalar,
               words[3],
               info->second.bytes,
               info->second.is_float,
               {},
               8,
               ""};
    if (words[2] == "scalar") {
      if (!want(4))
        return "a scalar argument has no dims";
    } else if (words[2] == "window" || words[2] == "global") {
      arg.kind = words[2] == "window" ? ArgKind::Window : ArgKind::Global;
      if (!want(5) || !parse_dims(words[4], arg.dims))
        return "dims are 1 to 8 non-negative sizes joined by `x`, e.g. 4x16";
      arg.bytes = static_cast<uint64_t>(arg.elem_bytes);
      for (int64_t d : arg.dims)
        if (__builtin_mul_overflow(arg.bytes, static_cast<uint64_t>(d),
                                   &arg.bytes) ||
            arg.bytes > (uint64_t{1} << 40))
          return "argument " + words[1] + " is too large";
    } else {
      return "an argument is `window`, `global` or `scalar`";
    }
    args[value] = arg;
  } else {
    return "unknown directive `" + key + "`";
  }
  return "";
}

} // namespace

bool parse_job(const std::string &path, Job &job, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read job file " + path;
    return false;
  }
  std::map<int64_t, JobArg> args;
  bool has_entry = false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::stringstream words_in(line);
    std::vector<std::string> words;
    for (std::string word; words_in >> word;)
      words.push_back(word);
    if (words.empty())
      continue;
    std::string message = directive(words, job, args, has_entry);
    if (!message.empty()) {
      error = path + ":" + std::to_string(number) + ": " + message;
      return false;
    }
  }
  if (job.ranks == 0 || !has_entry) {
    error = path + ": `ranks` and `entry` are required";
    return false;
  }
  for (auto &[index, arg] : args) {
    if (index != static_cast<int64_t>(job.args.size())) {
      error = path + ": argument " + std::to_string(job.args.size()) +
              " is missing (indices run from 0 without gaps)";
      return false;
    }
    job.args.push_back(arg);
  }
  return true;
}

} // namespace pld::sim
