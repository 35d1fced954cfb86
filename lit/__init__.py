"""LIT: linguistically informed transformations of English through the ERG and MRS."""

__version__ = "0.1.0"
