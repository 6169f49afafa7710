#pragma once
// Moves every element of `from` to the end of `to` (taking the whole buffer when `to` is
// empty) and leaves `from` empty: the scan's stages hand their batches on this way.

#include <iterator>
#include <utility>
#include <vector>

namespace lockscope::inspect {

template <class T>
void moveAppend(std::vector<T>& to, std::vector<T>&& from) {
    if (to.empty())
        to = std::move(from);
    else
        to.insert(to.end(), std::make_move_iterator(from.begin()),
                  std::make_move_iterator(from.end()));
    from.clear();
}

}  // namespace lockscope::inspect
