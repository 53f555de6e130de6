#pragma once
/// \file
/// The likely word behind a typo: the known name closest to a misspelt one ("did you mean
/// 'radius'?"), for unknown subcommands, options and scenario keys alike.

#include <cstddef>
#include <string>
#include <vector>

namespace collide {

/// The edit distance (insertions, deletions, substitutions, swaps of neighbours: optimal string
/// alignment) between two words, in characters.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word`, or "" when none is close enough to be a likely typo (at
/// most a third of the shorter word's letters changed, or `word` a prefix of it).
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

} // namespace collide
