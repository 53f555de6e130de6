#pragma once
/// \file
/// An environment variable set (or unset) for a scope and restored as it was at the end, so a
/// test leaves the environment of the tests after it as it found it.

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace collide::test {

/// Sets `name` to `value` (or unsets it, with std::nullopt) until the end of the scope.
class ScopedEnv {
public:
    ScopedEnv(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
        if (const char* old = std::getenv(name_.c_str())) saved_ = old;
        if (value)
            ::setenv(name_.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }
    ~ScopedEnv() {
        if (saved_)
            ::setenv(name_.c_str(), saved_->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
    std::optional<std::string> saved_;
};

} // namespace collide::test
