#pragma once
/// \file
/// A hash table from names to indices that does not keep the names: each slot holds a 32-bit
/// index and the name's hash, and the names are read back through `name_of(index)` from where
/// they already live (the bodies' names, a mapping's keys). 8 bytes a slot, at most half the
/// slots full, no allocation per name. Internal to the scenario loader.

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace collide::reader {

/// Names (read through NameOf, a callable index → std::string_view) to their indices.
template <class NameOf> class NameTable {
public:
    /// A table whose names are `name_of(index)`.
    explicit NameTable(NameOf name_of) : name_of_(std::move(name_of)) {}

    /// The index of `name`, or −1.
    long find(std::string_view name) const {
        if (slots_.empty()) return -1;
        const std::uint32_t h = hash(name);
        for (std::size_t i = h & mask(); slots_[i].index != kEmpty; i = (i + 1) & mask())
            if (slots_[i].index != kErased && slots_[i].hash == h && name_of_(slots_[i].index) == name)
                return slots_[i].index;
        return -1;
    }
    /// True when `name` is in the table.
    bool contains(std::string_view name) const { return find(name) >= 0; }
    /// Adds `name` → `index`; false (and nothing changes) when `name` is there already.
    bool insert(std::string_view name, std::uint32_t index) {
        if (2 * (used_ + 1) > slots_.size()) grow();
        const std::uint32_t h = hash(name);
        std::size_t free = slots_.size();
        std::size_t i = h & mask();
        for (; slots_[i].index != kEmpty; i = (i + 1) & mask()) {
            if (slots_[i].index == kErased) {
                if (free == slots_.size()) free = i;
            } else if (slots_[i].hash == h && name_of_(slots_[i].index) == name) {
                return false;
            }
        }
        if (free == slots_.size()) {
            free = i;
            ++used_;
        }
        slots_[free] = {h, index};
        ++size_;
        return true;
    }
    /// Removes `name` (nothing when it is not there).
    void erase(std::string_view name) {
        if (slots_.empty()) return;
        const std::uint32_t h = hash(name);
        for (std::size_t i = h & mask(); slots_[i].index != kEmpty; i = (i + 1) & mask())
            if (slots_[i].index != kErased && slots_[i].hash == h && name_of_(slots_[i].index) == name) {
                slots_[i].index = kErased;
                --size_;
                return;
            }
    }
    /// Makes room for `n` names without rehashing.
    void reserve(std::size_t n) {
        std::size_t size = 16;
        while (2 * (n + 1) > size) size *= 2;
        if (size > slots_.size()) rehash(size);
    }
    /// Names in the table.
    std::size_t size() const { return size_; }

private:
    static constexpr std::uint32_t kEmpty = 0xffffffffu;
    static constexpr std::uint32_t kErased = 0xfffffffeu;
    struct Slot {
        std::uint32_t hash = 0;
        std::uint32_t index = kEmpty;
    };
    static std::uint32_t hash(std::string_view s) {
        const std::size_t h = std::hash<std::string_view>{}(s);
        return static_cast<std::uint32_t>(h ^ (h >> 32));
    }
    std::size_t mask() const { return slots_.size() - 1; }
    void grow() { rehash(slots_.empty() ? 16 : 2 * slots_.size()); }
    void rehash(std::size_t size) {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(size, Slot{});
        used_ = 0;
        for (const Slot& s : old) {
            if (s.index == kEmpty || s.index == kErased) continue;
            std::size_t i = s.hash & mask();
            while (slots_[i].index != kEmpty) i = (i + 1) & mask();
            slots_[i] = s;
            ++used_;
        }
    }

    NameOf name_of_;
    std::vector<Slot> slots_;
    std::size_t used_ = 0; // slots not empty (names and erased ones)
    std::size_t size_ = 0; // names
};

} // namespace collide::reader
