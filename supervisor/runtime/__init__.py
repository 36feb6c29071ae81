"""Worker processes: the pool that starts them, runs jobs on them and replaces them, the kinds of
worker, their bounds (memory, deadlines), and teardown of whole process trees."""
