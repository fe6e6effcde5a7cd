/** What the fake Google's users manage: their Business Profile accounts and each account's locations. */
export interface FakeAccount {
  readonly name: string
  readonly accountName: string
  readonly type: string
  readonly locations: ReadonlyArray<{
    readonly name: string
    readonly title: string
    readonly storefrontAddress?: { readonly addressLines: ReadonlyArray<string>; readonly locality: string }
  }>
}

/**
 * Alice manages her own account (the Paris bakery) and a location group (Lyon, Paris again, Nice):
 * Paris is reached twice. Nobody manages an account without locations.
 */
export const googleUsers = () =>
  new Map<string, ReadonlyArray<FakeAccount>>([
    [
      "g-alice",
      [
        {
          name: "accounts/1110001",
          accountName: "Alice Martin",
          type: "PERSONAL",
          locations: [
            {
              name: "locations/9001",
              title: "Alice's Bakery",
              storefrontAddress: { addressLines: ["12 Rue des Fleurs"], locality: "Paris" }
            }
          ]
        },
        {
          name: "accounts/2220002",
          accountName: "Alice's Bakeries",
          type: "LOCATION_GROUP",
          locations: [
            { name: "locations/9002", title: "Alice's Bakery Lyon" },
            {
              name: "locations/9001",
              title: "Alice's Bakery",
              storefrontAddress: { addressLines: ["12 Rue des Fleurs"], locality: "Paris" }
            },
            {
              name: "locations/9003",
              title: "Alice's Bakery Nice",
              storefrontAddress: { addressLines: ["3 Promenade"], locality: "Nice" }
            }
          ]
        }
      ]
    ],
    ["g-nobody", [{ name: "accounts/3330003", accountName: "Nobody", type: "PERSONAL", locations: [] }]]
  ])
