"""The local web page and its JSON API (``binokel serve``): a thin adapter over the library.

:mod:`web.app` (routes), :mod:`web.params` (request validation and caps), :mod:`web.jobs`
(worker processes: progress, cancel), :mod:`web.worker` (the library calls), ``static/``
(the page: HTML, JS, CSS and the vendored Chart.js, shipped as package data).
"""
