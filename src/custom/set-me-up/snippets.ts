import {
  SNIPPET_SECRET,
  SNIPPET_USERNAME,
} from '../../../server/modules/set-me-up/placeholders.ts';
import {
  dockerRegistryHosts,
  type DockerRegistryHost,
} from '../../../server/modules/reverse-proxy/docker-hosts.ts';
import type { ToolId } from './messages';

export interface Snippet {
  title: string;
  text: string;
}

export interface SnippetSections {
  general: Snippet[];
  read: Snippet[];
  deploy: Snippet[];
}

export interface SnippetContext {
  /** `http://host:port/artifactory` */
  baseUrl: string;
  repoKey: string;
  /** Server-generated settings (Maven, Gradle, Ivy), with the placeholders in them. */
  server?: Record<string, string>;
  /** Docker: the registry host of the access method chosen (the repository path if none). */
  dockerHost?: DockerRegistryHost;
}

/** Unlocked credentials, or undefined: the snippets keep the placeholders then. */
export interface Credentials {
  userName: string;
  secret: string;
}

/** Puts the user's name and key where the placeholders are. */
export function withCredentials(text: string, credentials: Credentials | undefined): string {
  if (!credentials) return text;
  return text
    .replaceAll(SNIPPET_USERNAME, credentials.userName)
    .replaceAll(SNIPPET_SECRET, credentials.secret);
}

const withoutScheme = (url: string) => url.replace(/^https?:/, '');

function npmSnippets(
  { baseUrl, repoKey }: SnippetContext,
  credentials?: Credentials,
): SnippetSections {
  const registry = `${baseUrl}/api/npm/${repoKey}/`;
  const auth = credentials
    ? btoa(`${credentials.userName}:${credentials.secret}`)
    : `<base64 of ${SNIPPET_USERNAME}:${SNIPPET_SECRET}>`;
  return {
    general: [
      { title: 'Point npm at the repository', text: `npm config set registry ${registry}` },
    ],
    read: [
      {
        title: '.npmrc',
        text: `registry=${registry}\n${withoutScheme(registry)}:_auth=${auth}\n${withoutScheme(registry)}:always-auth=true\n`,
      },
      { title: 'Install', text: 'npm install <PACKAGE_NAME>' },
    ],
    deploy: [{ title: 'Publish', text: `npm publish --registry ${registry}` }],
  };
}

function pypiSnippets({ baseUrl, repoKey }: SnippetContext): SnippetSections {
  const repository = `${baseUrl}/api/pypi/${repoKey}`;
  const index = repository.replace('://', `://${SNIPPET_USERNAME}:${SNIPPET_SECRET}@`);
  return {
    general: [{ title: 'The repository URL', text: `${repository}/simple` }],
    read: [
      { title: 'pip.conf', text: `[global]\nindex-url = ${index}/simple\n` },
      { title: 'Install', text: `pip install --index-url ${index}/simple <PACKAGE_NAME>` },
    ],
    deploy: [
      {
        title: '.pypirc',
        text: `[distutils]\nindex-servers = depot\n\n[depot]\nrepository: ${repository}\nusername: ${SNIPPET_USERNAME}\npassword: ${SNIPPET_SECRET}\n`,
      },
      { title: 'Upload', text: 'twine upload -r depot dist/*' },
    ],
  };
}

function genericSnippets({ baseUrl, repoKey }: SnippetContext): SnippetSections {
  const auth = `-u${SNIPPET_USERNAME}:${SNIPPET_SECRET}`;
  return {
    general: [{ title: 'The repository URL', text: `${baseUrl}/${repoKey}/` }],
    read: [
      { title: 'Download', text: `curl ${auth} -O "${baseUrl}/${repoKey}/<TARGET_FILE_PATH>"` },
    ],
    deploy: [
      {
        title: 'Deploy',
        text: `curl ${auth} -T <PATH_TO_FILE> "${baseUrl}/${repoKey}/<TARGET_FILE_PATH>"`,
      },
    ],
  };
}

/**
 * Docker's clients name the registry by host and port, never by path: an image is
 * `<host:port>/<repoKey>/<image>:<tag>` with the repository path method, `<host>/<image>:<tag>`
 * with a sub domain or a port per repository behind the reverse proxy (docs/docker.md). A
 * registry on plain http needs `--tls-verify=false` (podman) or docker's insecure-registries.
 */
function dockerSnippets({ baseUrl, repoKey, dockerHost }: SnippetContext): SnippetSections {
  const registry = dockerHost ?? dockerRegistryHosts(baseUrl, repoKey)[0]!;
  const image = `${registry.host}/${registry.imagePrefix}<IMAGE_NAME>:<TAG>`;
  return {
    general: [
      {
        title: 'Log in',
        text: `echo '${SNIPPET_SECRET}' | docker login -u ${SNIPPET_USERNAME} --password-stdin ${registry.host}`,
      },
      ...(registry.plainHttp
        ? [
            {
              title: 'A registry without TLS: /etc/docker/daemon.json (podman: --tls-verify=false)',
              text: `{ "insecure-registries": ["${registry.host}"] }\n`,
            },
          ]
        : []),
    ],
    read: [{ title: 'Pull', text: `docker pull ${image}` }],
    deploy: [
      { title: 'Tag', text: `docker tag <IMAGE_NAME>:<TAG> ${image}` },
      { title: 'Push', text: `docker push ${image}` },
    ],
  };
}

function sbtSnippets({ baseUrl, repoKey }: SnippetContext): SnippetSections {
  const host = new URL(baseUrl).hostname;
  return {
    general: [{ title: 'The repository URL', text: `${baseUrl}/${repoKey}/` }],
    read: [
      {
        title: '~/.sbt/repositories',
        text: `[repositories]\nlocal\ndepot: ${baseUrl}/${repoKey}/\n`,
      },
      {
        title: '~/.sbt/.credentials',
        text: `realm=Depot\nhost=${host}\nuser=${SNIPPET_USERNAME}\npassword=${SNIPPET_SECRET}\n`,
      },
    ],
    deploy: [
      {
        title: 'build.sbt',
        text: `publishTo := Some("Depot" at "${baseUrl}/${repoKey}")\ncredentials += Credentials(Path.userHome / ".sbt" / ".credentials")\n`,
      },
    ],
  };
}

function serverSnippets(
  tool: 'maven' | 'gradle' | 'ivy',
  context: SnippetContext,
): SnippetSections {
  const server = context.server ?? {};
  const url = `${context.baseUrl}/${context.repoKey}/`;
  if (tool === 'maven')
    return {
      general: [{ title: 'The repository URL', text: url }],
      read: [{ title: '~/.m2/settings.xml', text: server.settings ?? '' }],
      deploy: [{ title: 'pom.xml', text: server.distributionManagement ?? '' }],
    };
  if (tool === 'gradle')
    return {
      general: [{ title: 'The repository URL', text: url }],
      read: [
        { title: 'gradle.properties', text: server.gradleProperties ?? '' },
        { title: 'build.gradle', text: server.buildGradle ?? '' },
      ],
      deploy: [{ title: 'Publish', text: 'gradle publish' }],
    };
  return {
    general: [{ title: 'The repository URL', text: url }],
    read: [{ title: 'ivysettings.xml', text: server.ivySettings ?? '' }],
    // The same resolver publishes: Ivy's url resolver PUTs each file to its pattern.
    deploy: [{ title: 'build.xml (Ant)', text: IVY_PUBLISH }],
  };
}

const IVY_PUBLISH = [
  '<target name="publish" depends="jar">',
  '  <ivy:resolve/>',
  '  <ivy:publish resolver="main" pubrevision="${version}" overwrite="true">',
  '    <artifacts pattern="build/[artifact]-[revision].[ext]"/>',
  '  </ivy:publish>',
  '</target>',
  '',
].join('\n');

/** The General, Resolve and Deploy snippets of a tool for a repository. */
export function snippetsFor(
  tool: ToolId,
  context: SnippetContext,
  credentials?: Credentials,
): SnippetSections {
  const sections =
    tool === 'npm'
      ? npmSnippets(context, credentials)
      : tool === 'pypi'
        ? pypiSnippets(context)
        : tool === 'sbt'
          ? sbtSnippets(context)
          : tool === 'generic'
            ? genericSnippets(context)
            : tool === 'docker'
              ? dockerSnippets(context)
              : serverSnippets(tool, context);
  const fill = (list: Snippet[]) =>
    list.map((s) => ({ ...s, text: withCredentials(s.text, credentials) }));
  return {
    general: fill(sections.general),
    read: fill(sections.read),
    deploy: fill(sections.deploy),
  };
}
