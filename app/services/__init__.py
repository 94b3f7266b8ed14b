"""Domain logic. Keyword-only functions, actor first; the only writers of data.

Every function checks the actor's permission and row scope itself: ReactPy events never pass
through HTTP middleware.
"""
