import { BlocksRenderer, type BlocksContent } from "@strapi/blocks-react-renderer";
import { data, useLoaderData, type LoaderFunctionArgs, type MetaFunction } from "react-router";

import { cmsJson } from "../cms.server.ts";

interface Page {
  title: string;
  body: BlocksContent;
  seo: { metaTitle?: string; metaDescription?: string } | null;
}

export async function loader({ url }: LoaderFunctionArgs) {
  const fullPath = url.pathname;
  const answer = await cmsJson<{ data: Page[] }>("/api/pages", { "filters[fullPath][$eq]": fullPath, locale: "en" });
  const page = answer.data[0];
  if (!page) throw data("Not found", { status: 404 });
  return { page };
}

export const meta: MetaFunction<typeof loader> = ({ loaderData }) => [
  { title: `${loaderData?.page.seo?.metaTitle ?? loaderData?.page.title ?? "Not found"} | Acme` },
  { name: "description", content: loaderData?.page.seo?.metaDescription ?? "" },
];

export default function CmsPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <article className="cms-page">
      <h1>{page.title}</h1>
      <BlocksRenderer content={page.body} />
    </article>
  );
}
