import time


def charge(payment):
    """Charge a payment; raises on a transient failure."""
    raise NotImplementedError


def run(queue, retries=3):
    for payment in queue:
        for attempt in range(retries):
            try:
                charge(payment)
                break
            except IOError:
                # TODO: exponential backoff instead of a fixed sleep
                time.sleep(1)
