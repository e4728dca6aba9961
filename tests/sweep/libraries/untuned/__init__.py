"""Sweep configurations of the libraries added for first contact (tests/sweep/untuned_libraries.py):
one module per library, named as the library imports, each with configurations(torch) ->
{name: (build, inputs)}, where build() returns an nn.Module and inputs() the keyword arguments of
one forward. A library whose compiled entry point is a function (a solver, a generate loop) is run
through a small module of the configuration's own whose forward calls it."""
