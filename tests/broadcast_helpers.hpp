// What test_broadcast and test_spawn share: an inbox that jobs send to and the test waits on
// (rayon's tests use a channel), and a worker kept busy by an explicit hand-off.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <semaphore>
#include <vector>

#include <mini/broadcast.hpp>

namespace test {

// rayon's crossbeam channel: any thread sends, the test waits until n items arrived. A hang here
// is a job that never ran: the case's watchdog ends it.
template <class T>
class Inbox {
public:
    void send(T item) {
        {
            std::lock_guard lock(mutex_);
            items_.push_back(std::move(item));
        }
        cv_.notify_all();
    }
    std::vector<T> wait_for(std::size_t n) {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return items_.size() >= n; });
        return items_;
    }
    std::vector<T> items() {
        std::lock_guard lock(mutex_);
        return items_;
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<T> items_;
};

// One worker of `pool` held in a spawned job until release(): start() returns once it is held,
// with the held worker's index.
class BusyWorker {
public:
    std::size_t start(mini::ThreadPool& pool) {
        pool.spawn([this] {
            index_ = *mini::current_thread_index();
            started_.release();
            release_.acquire();
        });
        started_.acquire();
        return index_;
    }
    void release() { release_.release(); }

private:
    std::binary_semaphore started_{0}, release_{0};
    std::size_t index_ = 0; // written before started_.release(), read after its acquire
};

} // namespace test
