#pragma once
/// \file
/// The overload-set idiom for std::visit over the project's variants (Shape, LogRequest):
/// `std::visit(Overloaded{[](const Sphere&) {...}, [](const Aabb&) {...}}, shape)`.

namespace collide {

/// One callable made of several lambdas, each handling one alternative of a variant.
template <class... Fs> struct Overloaded : Fs... { using Fs::operator()...; };
/// Deduces Overloaded's lambdas from its braces.
template <class... Fs> Overloaded(Fs...) -> Overloaded<Fs...>;

} // namespace collide
