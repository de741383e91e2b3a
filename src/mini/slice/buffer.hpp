// The merge sort's scratch: raw storage for len elements from std::allocator, no element ever
// constructed by the buffer itself (rayon's Vec::with_capacity(len) of length 0, sort.rs:1541).
// The merges construct into it and destroy what they take back (merge.hpp); by the time the sort
// returns or throws every slot is raw again, so the destructor only frees the memory.
#pragma once

#include <cstddef>
#include <memory>

namespace mini::slice {

template <class T>
class Buffer {
public:
    explicit Buffer(std::size_t len) : data_(std::allocator<T>().allocate(len)), len_(len) {}
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { std::allocator<T>().deallocate(data_, len_); }
    T* data() const noexcept { return data_; }

private:
    T* data_;
    std::size_t len_;
};

} // namespace mini::slice
