"""Chat clients: one interface over an OpenAI-compatible endpoint or the local causal LM.

Everything that only needs chat completions (LLM triple extraction, the LLM-based
hidden-state model) takes a `ChatClient`, so users can switch from the embedded
SmolLM2 to any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp) by setting
`RPS_LLM_BASE_URL`/`RPS_LLM_MODEL` (and `RPS_LLM_API_KEY` in the environment).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from core.model_loading import get_causal_lm

if TYPE_CHECKING:
    from core.settings import Settings

Message = dict[str, str]
_ROLES = {"system", "user", "assistant"}


class ChatError(RuntimeError):
    """A chat completion failed; the message names the endpoint/model, never the API key."""


def redact_url(url: str) -> str:
    """`url` without `user:password@` credentials, for messages (the rest is left as given)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable URL>" if "@" in url else url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def validate_messages(messages: list[Message]) -> None:
    if not messages:
        raise ChatError("no messages to send: give at least one {'role', 'content'} message")
    for index, message in enumerate(messages):
        role = message.get("role")
        if role not in _ROLES:
            raise ChatError(f"message {index}: role {role!r} is not one of {sorted(_ROLES)}")
        if not isinstance(message.get("content"), str):
            raise ChatError(f"message {index}: 'content' must be a string")


@dataclass(frozen=True)
class ChatReply:
    """A reply with its token counts; `estimated` (about 4 characters a token) when not reported."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    estimated: bool = False


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


class ChatClient(ABC):
    name: str = "chat"

    def chat_with_usage(
        self,
        messages: list[Message],
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> ChatReply:
        """The reply and its token counts (estimated unless the client knows them)."""
        text = self.chat(messages, max_tokens=max_tokens, temperature=temperature, seed=seed)
        prompt = sum(estimate_tokens(m["content"]) for m in messages)
        return ChatReply(text, prompt, estimate_tokens(text), estimated=True)

    @abstractmethod
    def chat(
        self,
        messages: list[Message],
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> str:
        """The assistant's reply to `messages` (greedy when temperature == 0)."""


class CountingChatClient(ChatClient):
    """A client that knows its token counts: `chat` is `chat_with_usage` without them."""

    @abstractmethod
    def chat_with_usage(
        self,
        messages: list[Message],
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> ChatReply:
        """The reply and its real token counts."""

    def chat(
        self,
        messages: list[Message],
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> str:
        return self.chat_with_usage(messages, max_tokens, temperature, seed).text


class OpenAICompatibleClient(CountingChatClient):
    """Chat completions from any server that speaks the OpenAI `/v1/chat/completions` API."""

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout_s: float = 60) -> None:
        if not base_url:
            raise ChatError("no endpoint: set RPS_LLM_BASE_URL (e.g. http://127.0.0.1:8000/v1)")
        if not model:
            raise ChatError(f"no model name for endpoint {redact_url(base_url)}: set RPS_LLM_MODEL")
        # the openai client (~2 s) and httpx (~0.4 s with ssl) load only when an API model is called
        from openai import OpenAI

        from core.http_deadline import deadline_client

        self.base_url = base_url
        self.shown_url = redact_url(base_url)  # what messages show: no credentials
        self.model = model
        self.name = f"openai:{model}"
        self.timeout_s = timeout_s
        self._client = OpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",
            timeout=timeout_s,
            max_retries=0,
            http_client=deadline_client(timeout_s),
        )

    def chat_with_usage(
        self,
        messages: list[Message],
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> ChatReply:
        validate_messages(messages)
        # the openai client (~2 s) and httpx (~0.4 s with ssl) load only when an API model is called
        import openai

        from core.http_deadline import deadline

        extra: dict[str, Any] = {} if seed is None else {"seed": seed}
        try:
            with deadline(self.timeout_s) as expired:
                response = self._client.chat.completions.create(
                    model=self.model,
                    messages=messages,  # type: ignore[arg-type]
                    max_tokens=max_tokens,
                    temperature=temperature,
                    **extra,
                )
        except openai.APIStatusError as exc:
            raise ChatError(
                f"endpoint {self.shown_url} (model {self.model!r}) answered HTTP {exc.status_code}: "
                f"{_short(self._redacted(exc.message))}"
            ) from None
        except openai.APIError as exc:
            if expired.is_set():
                raise ChatError(
                    f"endpoint {self.shown_url} (model {self.model!r}) did not answer within "
                    f"{self.timeout_s:g} s in all (setting llm_timeout_s); the call was stopped"
                ) from None
            raise ChatError(
                f"endpoint {self.shown_url} (model {self.model!r}) failed: "
                f"{type(exc).__name__}: {_short(self._redacted(str(exc)))}"
            ) from None
        if not response.choices:
            raise ChatError(f"endpoint {self.shown_url} (model {self.model!r}) returned no choices")
        text = response.choices[0].message.content or ""
        usage = response.usage
        if usage is None or not (usage.prompt_tokens or usage.completion_tokens):
            prompt = sum(estimate_tokens(m["content"]) for m in messages)
            return ChatReply(text, prompt, estimate_tokens(text), estimated=True)
        return ChatReply(text, usage.prompt_tokens, usage.completion_tokens)

    def _redacted(self, text: str) -> str:
        return text.replace(self.base_url, self.shown_url) if self.base_url != self.shown_url else text


class LocalChatClient(CountingChatClient):
    """The local causal LM (default: embedded SmolLM2-135M-Instruct) through its chat template."""

    def __init__(self, name_or_path: str = "", cache_dir: str = "", timeout_s: float | None = None) -> None:
        self.name_or_path = name_or_path
        self.cache_dir = cache_dir
        self.timeout_s = timeout_s  # generation time of one reply (setting local_lm_timeout_s)
        self.name = f"local:{name_or_path or 'SmolLM2-135M-Instruct'}"
        self._lock = threading.Lock()

    def chat_with_usage(
        self,
        messages: list[Message],
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> ChatReply:
        validate_messages(messages)
        # torch (~5 s) loads only when a model runs
        import torch

        tokenizer, model = get_causal_lm(self.name_or_path, self.cache_dir)
        prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        inputs = tokenizer(prompt, return_tensors="pt", add_special_tokens=False)
        sampling: dict[str, Any] = {"do_sample": False}
        if temperature > 0:
            sampling = {"do_sample": True, "temperature": temperature}
        if self.timeout_s:
            sampling["max_time"] = self.timeout_s
        with self._lock, torch.no_grad():
            if seed is not None:
                torch.manual_seed(seed)
            started = time.monotonic()
            output = model.generate(
                **inputs,
                max_new_tokens=max_tokens,
                pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id,
                **sampling,
            )
            elapsed = time.monotonic() - started
        prompt_tokens = inputs["input_ids"].shape[1]
        new_tokens = output[0, prompt_tokens:]
        if self.timeout_s and elapsed >= self.timeout_s and not _ended(new_tokens, tokenizer, max_tokens):
            raise ChatError(
                f"{self.name} did not finish its reply within {self.timeout_s:g} s "
                "(setting local_lm_timeout_s); the generation was stopped"
            )
        text = tokenizer.decode(new_tokens, skip_special_tokens=True).strip()
        return ChatReply(text, int(prompt_tokens), int(new_tokens.shape[0]))


def _ended(new_tokens: Any, tokenizer: Any, max_tokens: int) -> bool:
    """The reply ended on its own (end of sequence) or used its whole token budget."""
    if int(new_tokens.shape[0]) >= max_tokens:
        return True
    return int(new_tokens.shape[0]) > 0 and int(new_tokens[-1]) == tokenizer.eos_token_id


def get_chat_client(settings: Settings) -> ChatClient:
    """The configured endpoint when `settings.llm_base_url` is set, else the local model."""
    if settings.llm_base_url:
        return OpenAICompatibleClient(
            settings.llm_base_url,
            settings.llm_model,
            api_key=settings.llm_api_key,
            timeout_s=settings.llm_timeout_s,
        )
    return LocalChatClient(settings.local_lm, settings.cache_dir, timeout_s=settings.local_lm_timeout_s)


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."
