#include "io/closest_word.h"

#include <algorithm>
#include <numeric>

namespace collide {

std::size_t edit_distance(const std::string& a, const std::string& b) {
    // Optimal string alignment distance, over three rows.
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    std::iota(previous.begin(), previous.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = 0;
    for (const std::string& c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (best.empty() || d < best_distance) {
            best = c;
            best_distance = d;
        }
    }
    // A typo changes a few letters, not most of the word; a prefix ("val") also counts.
    const std::size_t allowed = std::max<std::size_t>(1, std::min(word.size(), best.size()) / 3);
    if (!best.empty() && (best_distance <= allowed || (word.size() >= 2 && best.starts_with(word)))) return best;
    for (const std::string& c : candidates)
        if (word.size() >= 2 && c.starts_with(word)) return c;
    return {};
}

} // namespace collide
