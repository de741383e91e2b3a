// The work-stealing deque: Worker (owner end), Stealer (thief end), Injector (global FIFO).
//
// Our stand-in for crossbeam-deque, the only dependency of the Rust original. The Worker/Stealer
// pair is the Chase-Lev deque with the C++11 orderings of Lê, Pop, Cohen and Zappa Nardelli,
// "Correct and Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013), Fig. 1. The owner
// pushes and pops at the bottom (LIFO); thieves take from the top (FIFO, the oldest job).
//
// Departures from the paper, each marked "[deviates]" below:
//  - The two publishing stores (bottom in push, the buffer pointer in grow) are release stores
//    instead of a release fence plus a relaxed store (push) or a relaxed store (grow). On x86 this
//    is the same code. ThreadSanitizer does not understand standalone fences, but it does see
//    release/acquire on the variables themselves, so this is how the deque stays TSan-clean without
//    suppressions or annotations. It is also CDSChecker's fix for the grow store.
//  - The thief loads the buffer pointer with acquire where the paper says consume (compilers
//    promote consume to acquire anyway).
// The seq_cst fences in pop and steal stay: they order a store before a load on two different
// variables (bottom, top), which nothing weaker does. TSan ignores them (the tsan preset builds
// with -Wno-tsan for that reason) and needs nothing from them: no plain data travels through them.
//
// Memory: the buffer only grows. A grown-out buffer is kept until the deque dies, because a thief
// may still be reading a slot of it; a retired buffer is never written again, and geometric growth
// keeps all retired buffers smaller together than the live one. So no epochs or hazard pointers.
// Left out compared with crossbeam-deque: shrinking, the FIFO owner flavour, steal_batch, epochs.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include <mini/probe.hpp>

namespace mini {

// What a steal attempt found. Retry means it lost a race and the deque may still hold work.
enum class StealStatus { Empty, Success, Retry };

template <class T>
struct Steal {
    StealStatus status = StealStatus::Empty;
    T value{};
    bool success() const { return status == StealStatus::Success; }
    bool retry() const { return status == StealStatus::Retry; }
};

namespace detail {

// One slot holds a T as relaxed atomic words, so concurrent slot accesses are not data races.
// A thief may read a slot while the owner rewrites it only after the thief's CAS on top is bound
// to fail (the owner overwrites slot i only once top has moved past i), so a torn T read there is
// always thrown away.
// ANCHOR: slot
template <class T>
class Slot {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % sizeof(std::uintptr_t) == 0);
    static constexpr std::size_t words = sizeof(T) / sizeof(std::uintptr_t);
    using Words = std::array<std::uintptr_t, words>;
    std::array<std::atomic<std::uintptr_t>, words> w_{};

public:
    void store(const T& v) {
        const auto a = std::bit_cast<Words>(v);
        for (std::size_t i = 0; i < words; ++i) w_[i].store(a[i], std::memory_order_relaxed);
    }
    T load() const {
        Words a;
        for (std::size_t i = 0; i < words; ++i) a[i] = w_[i].load(std::memory_order_relaxed);
        return std::bit_cast<T>(a);
    }
};
// ANCHOR_END: slot

// ANCHOR: inner
template <class T>
struct Buffer {
    explicit Buffer(std::int64_t capacity) : cap(capacity), slots(new Slot<T>[capacity]) {}
    Slot<T>& at(std::int64_t i) { return slots[i & (cap - 1)]; }
    const std::int64_t cap; // a power of two
    const std::unique_ptr<Slot<T>[]> slots;
};

template <class T>
struct Inner {
    static constexpr std::int64_t min_cap = 64;
    alignas(64) std::atomic<std::int64_t> top{0};    // thieves' end
    alignas(64) std::atomic<std::int64_t> bottom{0}; // owner's end
    alignas(64) std::atomic<Buffer<T>*> buffer{new Buffer<T>(min_cap)};
    std::vector<std::unique_ptr<Buffer<T>>> retired; // owner only; freed with the deque
    ~Inner() { delete buffer.load(std::memory_order_relaxed); }
};
// ANCHOR_END: inner

} // namespace detail

template <class T>
class Stealer;

// The owner's end. Only the thread that owns it may call push and pop.
template <class T>
class Worker {
public:
    Worker() : inner_(std::make_shared<detail::Inner<T>>()) {}
    // One owner: a copy would be a second thread pushing and popping at the same bottom.
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    Stealer<T> stealer() const { return Stealer<T>(inner_); }

    // ANCHOR: push
    void push(const T& value) {
        auto& d = *inner_;
        const std::int64_t b = d.bottom.load(std::memory_order_relaxed);
        const std::int64_t t = d.top.load(std::memory_order_acquire);
        detail::Buffer<T>* buf = d.buffer.load(std::memory_order_relaxed);
        if (b - t > buf->cap - 1) buf = grow(buf, b, t);
        buf->at(b).store(value);
        // [deviates] paper: fence(release); bottom.store(b + 1, relaxed). x86: same; TSan sees it.
        d.bottom.store(b + 1, std::memory_order_release); // publishes the slot to thieves
    }
    // ANCHOR_END: push

    // LIFO: the job pushed last. Empty if a thief took the last one first.
    // ANCHOR: pop
    std::optional<T> pop() {
        auto& d = *inner_;
        const std::int64_t b = d.bottom.load(std::memory_order_relaxed) - 1;
        detail::Buffer<T>* buf = d.buffer.load(std::memory_order_relaxed);
        d.bottom.store(b, std::memory_order_release); // claim b (release: thief sees pushes) ...
        std::atomic_thread_fence(std::memory_order_seq_cst); // ... before reading top (see steal)
        std::int64_t t = d.top.load(std::memory_order_relaxed);
        if (t > b) { // it was empty
            d.bottom.store(b + 1, std::memory_order_relaxed);
            return std::nullopt;
        }
        T value = buf->at(b).load();
        if (t == b) { // the last job: race the thieves for it on top
            const bool won = d.top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                                           std::memory_order_relaxed);
            d.bottom.store(b + 1, std::memory_order_relaxed);
            if (!won) return std::nullopt;
        }
        return value;
    }
    // ANCHOR_END: pop

    bool is_empty() const {
        const std::int64_t b = inner_->bottom.load(std::memory_order_relaxed);
        const std::int64_t t = inner_->top.load(std::memory_order_seq_cst);
        return b - t <= 0;
    }

private:
    // ANCHOR: grow
    // Owner only. The old buffer is retired, not freed: a thief may be reading it right now.
    detail::Buffer<T>* grow(detail::Buffer<T>* old, std::int64_t b, std::int64_t t) {
        auto bigger = std::make_unique<detail::Buffer<T>>(old->cap * 2);
        for (std::int64_t i = t; i < b; ++i) bigger->at(i).store(old->at(i).load());
        inner_->retired.emplace_back(old); // may throw: then `bigger` is freed, `old` stays live
        // [deviates] paper: relaxed. Release makes the copied slots visible with the pointer
        // (CDSChecker's fix; also what TSan needs to see).
        inner_->buffer.store(bigger.get(), std::memory_order_release);
        return bigger.release();
    }
    // ANCHOR_END: grow

    std::shared_ptr<detail::Inner<T>> inner_;
};

// The thieves' end. Any thread may steal; a Stealer may be copied freely.
template <class T>
class Stealer {
public:
    // FIFO: the oldest job, which in a fork-join tree is the biggest piece of work.
    // ANCHOR: steal
    Steal<T> steal() const {
        auto& d = *inner_;
        std::int64_t t = d.top.load(std::memory_order_acquire);
        std::atomic_thread_fence(std::memory_order_seq_cst); // top before bottom (pairs with pop)
        const std::int64_t b = d.bottom.load(std::memory_order_acquire);
        if (t >= b) return {StealStatus::Empty};
        probe(Probe::steal_before_buffer); // a test may grow the buffer here
        // [deviates] paper: consume.
        detail::Buffer<T>* buf = d.buffer.load(std::memory_order_acquire);
        T value = buf->at(t).load();
        if (!d.top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                           std::memory_order_relaxed))
            return {StealStatus::Retry}; // another thief, or the owner, took it
        return {StealStatus::Success, value};
    }
    // ANCHOR_END: steal

    bool is_empty() const {
        const std::int64_t t = inner_->top.load(std::memory_order_acquire);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        const std::int64_t b = inner_->bottom.load(std::memory_order_acquire);
        return b - t <= 0;
    }

private:
    friend class Worker<T>;
    explicit Stealer(std::shared_ptr<detail::Inner<T>> inner) : inner_(std::move(inner)) {}
    std::shared_ptr<detail::Inner<T>> inner_;
};

// The global queue for jobs that come from outside the pool: many producers, many consumers, FIFO.
//
// A mutex-protected queue is enough here: only threads outside the pool push (install, or a join
// called from outside), once per outside call, while the hot path of a join never touches it.
// crossbeam's lock-free Injector pays off for spawn-heavy programs, which this workbook leaves out.
// The length is also kept in an atomic so that an idle worker can see "empty" without the lock;
// that read is what the sleep protocol's fences order (see sleep.hpp).
template <class T>
class Injector {
public:
    void push(const T& value) {
        std::lock_guard lock(mutex_);
        queue_.push_back(value);
        len_.store(queue_.size(), std::memory_order_release);
    }

    Steal<T> steal() {
        if (is_empty()) return {StealStatus::Empty};
        std::lock_guard lock(mutex_);
        if (queue_.empty()) return {StealStatus::Empty};
        Steal<T> s{StealStatus::Success, queue_.front()};
        queue_.pop_front();
        len_.store(queue_.size(), std::memory_order_release);
        return s;
    }

    bool is_empty() const { return len() == 0; }
    std::size_t len() const { return len_.load(std::memory_order_acquire); }

private:
    std::mutex mutex_;
    std::deque<T> queue_;
    std::atomic<std::size_t> len_{0};
};

} // namespace mini
