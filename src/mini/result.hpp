// mini::Result<T, E>: a value or an error, the error-carrying type that try_for_each, try_reduce,
// try_fold and collect short-circuit on (C++20 has no std::expected; this is the least of one).
//
//     mini::Result<int, std::string> r = mini::err(std::string("bad"));
//     if (!r) use(r.error()); else use(*r);
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace mini {

// What an error is constructed from: mini::err(e), as Rust's Err(e).
template <class E>
struct Err {
    E error;
};
template <class E>
Err<std::decay_t<E>> err(E&& e) { return {std::forward<E>(e)}; }

template <class T, class E>
class Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    template <class E2>
        requires std::is_constructible_v<E, E2&&>
    Result(Err<E2> e) : v_(std::in_place_index<1>, std::move(e.error)) {}

    bool ok() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }
    T& operator*() & { return std::get<0>(v_); }
    const T& operator*() const& { return std::get<0>(v_); }
    T&& operator*() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &std::get<0>(v_); }
    const T* operator->() const { return &std::get<0>(v_); }
    E& error() & { return std::get<1>(v_); }
    const E& error() const& { return std::get<1>(v_); }
    E&& error() && { return std::get<1>(std::move(v_)); }

    friend bool operator==(const Result&, const Result&) = default;

private:
    std::variant<T, E> v_; // index 0 the value, 1 the error (T and E may be the same type)
};

} // namespace mini
