"""The REST half of the protocol: the routers, their request and response models,
their dependencies ("this table", "this seat", the checked write), the error shape and
the OpenAPI document's error codes. Each route calls one service method below it.
"""
