// What the try_* calls need of a "try" type (rayon's private Try trait, iter/mod.rs): is it a
// break (an error, a nullopt), the value inside when it is not, a success made from a value, and
// the same break carried into another try type (collect's Result<vector<T>, E> from Result<T, E>
// items). Implemented for std::optional<T> and mini::Result<T, E>.
#pragma once

#include <optional>
#include <utility>

#include <mini/result.hpp>

namespace mini::iter {

template <class R>
struct Try; // no try type: a compile error names it

template <class T>
struct Try<std::optional<T>> {
    using Output = T;
    template <class U>
    using Rebind = std::optional<U>;
    static bool is_break(const std::optional<T>& r) { return !r.has_value(); }
    static std::optional<T> from_output(T value) { return std::optional<T>(std::move(value)); }
    template <class U>
    static std::optional<U> rebind_break(std::optional<T>&&) { return std::nullopt; }
};

template <class T, class E>
struct Try<Result<T, E>> {
    using Output = T;
    template <class U>
    using Rebind = Result<U, E>;
    static bool is_break(const Result<T, E>& r) { return !r.ok(); }
    static Result<T, E> from_output(T value) { return Result<T, E>(std::move(value)); }
    template <class U>
    static Result<U, E> rebind_break(Result<T, E>&& r) { return Err<E>{std::move(r).error()}; }
};

template <class R>
concept TryType = requires { typename Try<R>::Output; };

} // namespace mini::iter
