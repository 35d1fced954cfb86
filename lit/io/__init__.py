"""Reading datasets (SNLI/MNLI JSONL, CSV/TSV, sentence files) and writing resumable JSONL."""

from lit.io.jsonl import RecordWriter, iter_jsonl, written_ids
from lit.io.readers import NliItem, count_records, read_nli, read_sentences

__all__ = [
    "NliItem", "RecordWriter", "count_records", "iter_jsonl", "read_nli", "read_sentences",
    "written_ids",
]
