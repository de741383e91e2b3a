// copied() and cloned() (rayon's iter/copied.rs, cloned.rs): items that are references become
// values. In C++ both are a copy; copied() asks, as rayon's T: Copy does, for a type a memcpy
// copies. Both are map with this function, so they keep map's indexed-ness.
#pragma once

#include <type_traits>

namespace mini::iter {

template <bool trivial>
struct CopyItem {
    template <class T>
    std::remove_cvref_t<T> operator()(T&& x) const {
        static_assert(!trivial || std::is_trivially_copyable_v<std::remove_cvref_t<T>>,
                      "copied() needs a trivially copyable item (rayon's T: Copy); use cloned()");
        return x;
    }
};

} // namespace mini::iter
