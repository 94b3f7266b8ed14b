"""The shared kernel: configuration, database, errors, money, validation, i18n, uploads and file
storage. It imports no domain."""
