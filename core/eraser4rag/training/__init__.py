"""Training the Eraser4RAG rewriter: SFT on reviewed rewrites (`sft.py`), then RL with the
paper's reward (`ppo.py`). Each trainer has its settings dataclass beside it, as TRL does, and
writes a peft adapter folder that the `eraser4rag` eraser loads (`--rewriter-adapter`)."""
