"""Reading dataset rows and sentence files (lit.io.readers) and writing resumable JSONL."""

from lit.io.jsonl import RecordWriter, iter_jsonl, written_ids
from lit.io.readers import count_records, read_sentences

__all__ = ["RecordWriter", "count_records", "iter_jsonl", "read_sentences", "written_ids"]
