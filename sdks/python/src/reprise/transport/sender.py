"""A small pool of daemon threads that sends an export's requests concurrently (up to the export concurrency).
Its own threads, not ``concurrent.futures``, because executors refuse work once the interpreter is exiting and
the exit flush still has to send."""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable, List, Optional, Tuple


class SenderPool:
    """Runs batches of callables on at most ``size`` threads, started on demand."""

    def __init__(self, size: int) -> None:
        self._size = max(1, size)
        self._tasks: "queue.SimpleQueue[Optional[Tuple[Callable[[], Any], List[Any], int, threading.Semaphore]]]" = queue.SimpleQueue()
        self._threads: List[threading.Thread] = []
        self._lock = threading.Lock()

    def run_all(self, tasks: List[Callable[[], Any]]) -> List[Any]:
        """Runs every task and returns their results in order. One task runs on the calling thread."""
        if len(tasks) == 1:
            return [tasks[0]()]
        results: List[Any] = [None] * len(tasks)
        done = threading.Semaphore(0)
        self._grow(len(tasks))
        for index, task in enumerate(tasks):
            self._tasks.put((task, results, index, done))
        for _ in tasks:
            done.acquire()
        return results

    def _grow(self, wanted: int) -> None:
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            while len(self._threads) < min(self._size, wanted):
                thread = threading.Thread(target=self._work, name="reprise-sender", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while True:
            item = self._tasks.get()
            if item is None:
                return
            task, results, index, done = item
            try:
                results[index] = task()
            except BaseException as error:  # a sender must never die silently with work pending
                results[index] = error
            finally:
                done.release()

    def stop(self) -> None:
        with self._lock:
            for _ in self._threads:
                self._tasks.put(None)
            self._threads = []

    def reset_after_fork(self) -> None:
        """In a forked child the threads do not exist; start afresh."""
        self._tasks = queue.SimpleQueue()
        self._threads = []
        self._lock = threading.Lock()
