// collect: the consumer that writes into the caller's memory (rayon's iter/collect).
//
// The storage is reserved once, for exactly `len` items. Each leaf gets its own slice of it,
// uninitialized, and constructs its items there in order, counting them: its CollectResult owns
// what it constructed and destroys it if anything throws. Two results merge only when they are
// adjacent (left ends where right starts), and at the end the count must be exactly `len`: only
// then does the storage take ownership of the elements.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <mini/iter/plumbing.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

// An allocation for `capacity` elements of which the first `len` are constructed (rayon writes
// into a Vec's spare capacity and calls set_len; std::vector has no set_len, hence this).
template <class V>
class RawVec {
public:
    explicit RawVec(std::size_t capacity)
        : data_(capacity > 0 ? std::allocator<V>{}.allocate(capacity) : nullptr), cap_(capacity) {}
    RawVec(const RawVec&) = delete;
    RawVec& operator=(const RawVec&) = delete;
    ~RawVec() {
        std::destroy_n(data_, len_);
        if (data_ != nullptr) std::allocator<V>{}.deallocate(data_, cap_);
    }
    V* data() const noexcept { return data_; }
    void set_len(std::size_t len) noexcept { len_ = len; }
    // The elements, moved into a std::vector; the moved-from ones are destroyed here.
    std::vector<V> into_vector() {
        std::vector<V> out;
        out.reserve(len_);
        for (std::size_t i = 0; i < len_; ++i) out.push_back(std::move(data_[i]));
        return out; // ~RawVec destroys the len_ moved-from shells
    }

private:
    V* data_;
    std::size_t cap_;
    std::size_t len_ = 0;
};

// ANCHOR: collect_result
// A leaf's folder and result: the proxy owner of [start, start + initialized_len).
template <class V>
class CollectResult {
public:
    using Result = CollectResult;
    CollectResult(V* start, std::size_t total_len) : start_(start), total_len_(total_len) {}
    CollectResult(CollectResult&& other) noexcept
        : start_(other.start_), total_len_(other.total_len_),
          initialized_len_(std::exchange(other.initialized_len_, 0)) {}
    CollectResult& operator=(CollectResult&&) = delete;
    ~CollectResult() { std::destroy_n(start_, initialized_len_); } // a throw destroys these

    template <class T>
    void consume(T&& item) {
        if (initialized_len_ >= total_len_)
            throw std::logic_error("mini::collect: too many values pushed to consumer");
        std::construct_at(start_ + initialized_len_, std::forward<T>(item));
        ++initialized_len_; // only after the constructor returned: it owns what exists
    }
    bool full() const { return false; }
    CollectResult complete() && { return std::move(*this); }

    std::size_t len() const noexcept { return initialized_len_; }
    // Gives up ownership: the elements now belong to whoever takes them.
    std::size_t release_ownership() noexcept { return std::exchange(initialized_len_, 0); }

    // ANCHOR: collect_reducer
    // Merges right into left only if right starts where left's elements end; otherwise right
    // is destroyed here, and the final count falls short.
    friend CollectResult merge(CollectResult left, CollectResult right) {
        if (left.start_ + left.initialized_len_ == right.start_) {
            left.total_len_ += right.total_len_;
            left.initialized_len_ += right.release_ownership();
        }
        return left;
    }
    // ANCHOR_END: collect_reducer

private:
    V* start_;
    std::size_t total_len_;
    std::size_t initialized_len_ = 0;
};
// ANCHOR_END: collect_result

struct CollectReducer {
    template <class V>
    CollectResult<V> reduce(CollectResult<V> left, CollectResult<V> right) const {
        return merge(std::move(left), std::move(right));
    }
};

// A slice [start, start + len) of uninitialized storage.
template <class V>
struct CollectConsumer {
    using Result = CollectResult<V>;
    V* start;
    std::size_t len;

    std::tuple<CollectConsumer, CollectConsumer, CollectReducer> split_at(std::size_t index) const {
        if (index > len) throw std::logic_error("mini::collect: split beyond the slice");
        return {CollectConsumer{start, index}, CollectConsumer{start + index, len - index}, {}};
    }
    CollectResult<V> into_folder() const { return {start, len}; }
    bool full() const { return false; }
};

// ANCHOR: collect_with_consumer
// Reserve, drive, check, release, set the length (rayon's collect_with_consumer). `drive` runs
// the bridge with the consumer it is given and returns its CollectResult.
template <class V, class Drive>
std::vector<V> collect_with_consumer(std::size_t len, Drive&& drive) {
    RawVec<V> storage(len);
    {
        CollectResult<V> result = drive(CollectConsumer<V>{storage.data(), len});
        if (result.len() != len)
            throw std::logic_error("mini::collect: expected " + std::to_string(len) +
                                   " total writes, but got " + std::to_string(result.len()));
        if constexpr (!sabotage::collect_no_release) // [COLLECT_NO_RELEASE] result keeps them
            result.release_ownership();
        storage.set_len(len); // the storage owns the elements from here on
    } // result is destroyed here, owning nothing
    return storage.into_vector();
}
// ANCHOR_END: collect_with_consumer

// ANCHOR: collect_in_place
// For a value type with nothing to construct or destroy (trivially copyable and trivially
// default-constructible: u64, a struct of numbers), the leaves write straight into the
// std::vector that is returned, and into_vector's move of every element goes. std::vector has
// no set_len: its elements exist only once resize has value-initialised them, one serial pass of
// zeros that also takes each fresh page's first-write fault. rayon's leaves write into the Vec's
// spare capacity and take those faults in parallel; a write past size() is outside std::vector's
// contract (libc++, and libstdc++ with _GLIBCXX_SANITIZE_VECTOR, report it under ASan).
template <class V, class Drive>
std::vector<V> collect_in_place(std::size_t len, Drive&& drive) {
    static_assert(std::is_trivially_copyable_v<V> && std::is_trivially_default_constructible_v<V>);
    std::vector<V> out(len); // zeros: every element exists before a leaf writes it
    CollectResult<V> result = drive(CollectConsumer<V>{out.data(), len});
    if (result.len() != len)
        throw std::logic_error("mini::collect: expected " + std::to_string(len) +
                               " total writes, but got " + std::to_string(result.len()));
    if constexpr (!sabotage::collect_no_release) // [COLLECT_NO_RELEASE] result keeps them
        result.release_ownership();
    return out;
}
// ANCHOR_END: collect_in_place

} // namespace mini::iter
