-- A tile's statement never gains from JIT compiling: its generic plan's estimate (a window of any
-- size over the partition, each pipe's risk looked up in the enterprise's assessment) can pass
-- jit_above_cost, and compiling then cost a z16 tile ~15 ms where making it takes 1.
ALTER FUNCTION pipe_tile_pipes(integer, float8, float8, float8, float8, boolean) SET jit = off;
