// The only file that includes CLI11 (args.hpp says why).
#include "args.hpp"

#include <climits>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <instrument/recorder.hpp>
#include <instrument/replay.hpp>

namespace app {

namespace {

CLI::Validator range(Range r) {
    if (r.lo >= INT_MIN && r.hi <= INT_MAX) return CLI::Range(int(r.lo), int(r.hi));
    return CLI::Range(std::size_t(r.lo), std::size_t(r.hi));
}

} // namespace

Args::Args(const std::string& about)
    : owned_(std::make_unique<CLI::App>(about)), app_(owned_.get()) {}
Args::Args(CLI::App* command) : app_(command) {}
Args::~Args() = default;

Args& Args::add(const std::string& name, unsigned long& value, const std::string& help, Range r) {
    last_ = app_->add_option(name, value, help)->check(range(r));
    return *this;
}

Args& Args::add(const std::string& name, unsigned& value, const std::string& help, Range r) {
    last_ = app_->add_option(name, value, help)->check(range(r));
    return *this;
}

Args& Args::add(const std::string& name, double& value, const std::string& help, Reals r) {
    last_ = app_->add_option(name, value, help)->check(CLI::Range(r.lo, r.hi));
    return *this;
}

Args& Args::add(const std::string& name, std::string& value, const std::string& help,
                const std::vector<std::string>& members) {
    last_ = app_->add_option(name, value, help)->check(CLI::IsMember(members));
    return *this;
}

Args& Args::add(const std::string& name, std::vector<std::string>& value, const std::string& help,
                const std::vector<std::string>& members, bool ignore_case) {
    auto member = ignore_case ? CLI::IsMember(members, CLI::ignore_case) : CLI::IsMember(members);
    last_ = app_->add_option(name, value, help)->check(member)->delimiter(',');
    return *this;
}

Args& Args::flag(const std::string& name, bool& value, const std::string& help) {
    last_ = app_->add_flag(name, value, help);
    return *this;
}

Args& Args::required() {
    last_->required();
    return *this;
}

Args& Args::trace() {
    last_ = app_->add_option_function<std::string>(
                    "--trace",
                    [](const std::string& path) {
                        if (!mini::recorder::enabled)
                            throw CLI::ValidationError("--trace", "this build has RECORDER=OFF");
                        if (!mini::recorder::open_trace(path))
                            throw CLI::ValidationError("--trace", "cannot write " + path);
                    },
                    fmt::format("write the events of every thread as a Chrome trace (open it in "
                                "ui.perfetto.dev or chrome://tracing); long runs keep only each "
                                "thread's last {} events",
                                mini::recorder::capacity))
                ->type_name("FILE");
    return *this;
}

Args& Args::command(const std::string& name, const std::string& help) {
    app_->require_subcommand(1);
    commands_.push_back(std::unique_ptr<Args>(new Args(app_->add_subcommand(name, help))));
    return *commands_.back();
}

bool Args::chosen() const {
    return app_->parsed();
}

bool Args::given(const std::string& name) const {
    return app_->count(name) > 0;
}

int Args::parse(int argc, char** argv) {
    try {
        app_->parse(argc, argv);
        return -1;
    } catch (const CLI::ParseError& e) {
        const int code = app_->exit(e); // prints help, or the error with a hint
        return code == 0 ? 0 : 2;
    }
}

} // namespace app
