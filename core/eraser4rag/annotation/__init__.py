"""The annotation studio's algorithms (Eraser4RAG section 3.1.1): tasks, candidate rewrites,
automatic scores and the paper's filter, agreement, and SFT export. No SQL here: the store is
`storage.annotation_store`."""
