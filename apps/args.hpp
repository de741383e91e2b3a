// The drivers' command line: CLI11 behind a few functions, compiled once per build (args.cpp).
// CLI11 2.1 is header-only, and its header alone costs a sanitizer build close to a minute of
// compiling in every file that includes it (its validators are objects defined in the header):
// seven drivers included it, and each build type compiled it seven times. Here only args.cpp does.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace app {

// A closed range, checked and printed by CLI11 ("INT in [1 - 256]"). An integer range whose ends
// fit an int is checked as int, a wider one as an unsigned size.
struct Range {
    long long lo, hi;
};
struct Reals {
    double lo, hi;
};

class Args {
public:
    explicit Args(const std::string& about);
    ~Args();
    Args(const Args&) = delete;
    Args& operator=(const Args&) = delete;

    // NAME in capitals is positional, --name an option; a value not given keeps its default.
    Args& add(const std::string& name, unsigned long& value, const std::string& help, Range r);
    Args& add(const std::string& name, unsigned& value, const std::string& help, Range r);
    Args& add(const std::string& name, double& value, const std::string& help, Reals r);
    // One of `members`.
    Args& add(const std::string& name, std::string& value, const std::string& help,
              const std::vector<std::string>& members);
    // A comma-separated list of `members`.
    Args& add(const std::string& name, std::vector<std::string>& value, const std::string& help,
              const std::vector<std::string>& members, bool ignore_case = false);
    Args& flag(const std::string& name, bool& value, const std::string& help);
    Args& required(); // the argument added last must be given
    Args& trace();    // --trace FILE (common.hpp's TraceOption)

    // A subcommand: exactly one of them must be named. Options added to it belong to it.
    Args& command(const std::string& name, const std::string& help);
    bool chosen() const;                       // this subcommand was named
    bool given(const std::string& name) const; // this argument was given

    // Parses, or returns the exit code to leave with: -1 to go on, 0 after --help, 2 after any
    // usage error (the error and a hint are printed).
    int parse(int argc, char** argv);

private:
    explicit Args(CLI::App* command);
    std::unique_ptr<CLI::App> owned_; // the root's App; a subcommand's belongs to its parent
    CLI::App* app_;
    CLI::Option* last_ = nullptr;
    std::vector<std::unique_ptr<Args>> commands_;
};

} // namespace app
