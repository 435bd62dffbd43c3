"""Search strategies over the tree of configurations: sequential (dfs, bfs, mixed), threads (pt_dfs, pt_mix,
farm, and a portfolio of seeded first-solution searches) and a cluster (``distributed``, on Dask). Every strategy
gives the same solution counts."""
