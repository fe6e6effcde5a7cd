import { createServer } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { NodeHttpServer } from "@effect/platform-node"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as LocalFilesBlobStore from "../../adapters/local-files/LocalFilesBlobStore.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as S3BlobStore from "../../adapters/s3/S3BlobStore.ts"
import type { BlobStore } from "../../application/ports/BlobStore.ts"
import type { FileLinks } from "../../application/ports/FileLinks.ts"
import * as Files from "../../hosts/http/files.ts"
import { fauxqs } from "../support/fauxqs.ts"
import { freePort } from "../support/freePort.ts"
import { blobStoreContract } from "./blobStore.ts"

/** A store whose URLs point at the HTTP host's /files route (signed links), served for real on a free port. */
const withFileRoute = (make: (publicUrl: string) => Layer.Layer<BlobStore, unknown, FileLinks>) =>
  Layer.unwrap(
    Effect.map(Effect.promise(freePort), (port) => {
      const store = make(`http://127.0.0.1:${port}`)
      const server = HttpRouter.serve(Files.layer, { disableLogger: true, disableListenLog: true }).pipe(
        Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
      )
      return server.pipe(Layer.provideMerge(store), Layer.provide(HmacFileLinks.layer("contract secret")))
    })
  )

const localDir = Layer.unwrap(
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "herald-blobs-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  ).pipe(Effect.map((dir) => withFileRoute((publicUrl) => LocalFilesBlobStore.layer({ dir, publicUrl }))))
)

// fauxqs runs in its own process for the suite; the bucket is private, so `url` is presigned.
const s3 = Layer.unwrap(
  Effect.gen(function* () {
    const server = yield* fauxqs
    const options = {
      bucket: "herald-contract",
      region: "us-east-1",
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: "test", secretAccessKey: "test" }
    }
    const client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: true,
      credentials: options.credentials
    })
    yield* Effect.promise(() => client.send(new CreateBucketCommand({ Bucket: options.bucket })))
    client.destroy()
    return S3BlobStore.layer(options)
  })
)

blobStoreContract("memory", withFileRoute(MemoryBlobStore.layer))
blobStoreContract("local files", localDir)
blobStoreContract("S3 on fauxqs", s3)
