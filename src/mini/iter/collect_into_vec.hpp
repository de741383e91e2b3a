// collect_into_vec(out) (rayon's iter/collect/mod.rs, collect_into_vec): the caller's vector
// is cleared and refilled with exactly len() items, reusing its allocation.
#pragma once

#include <memory>
#include <type_traits>
#include <vector>

#include <mini/iter/collect.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <class D, class V, class A>
void collect_into_vec(const D& it, std::vector<V, A>& out) {
    static_assert(D::indexed, "collect_into_vec needs an indexed iterator (rayon's too)");
    static_assert(std::is_same_v<V, value_t<D>>, "collect_into_vec: the vector's type is the item's");
    ThreadPool& pool = current_pool();
    auto drive = [&](auto consumer) { return it.drive(pool, std::move(consumer)); };
    const std::size_t len = it.len();
    out.clear();
    if constexpr (std::is_trivially_copyable_v<V> && std::is_trivially_default_constructible_v<V>) {
        out.resize(len); // reuses the capacity; the leaves overwrite the zeros in place
        CollectResult<V> result = drive(CollectConsumer<V>{out.data(), len});
        if (result.len() != len)
            throw std::logic_error("mini::collect: expected " + std::to_string(len) +
                                   " total writes, but got " + std::to_string(result.len()));
        result.release_ownership();
    } else { // std::vector cannot be written past its size: collect, then move in
        std::vector<V> items = collect_with_consumer<V>(len, drive);
        out.reserve(len);
        for (V& x : items) out.push_back(std::move(x));
    }
}

} // namespace mini::iter
